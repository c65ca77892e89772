import { afterEach, expect, it } from 'vitest';
import { isEditing, recheckDelay, scrolledPastHalf } from './ad-rules';

afterEach(() => {
  document.body.innerHTML = '';
});

it('a focused field, or anything focused inside a form, is editing', () => {
  document.body.innerHTML = `
    <form><input id="name" /><button id="save" type="submit">Save changes</button></form>
    <input id="search" /><textarea id="note"></textarea><select id="pick"></select>
    <div id="editable" contenteditable="true"></div>
    <button id="play">Play</button><a id="link" href="/x">x</a>`;
  const el = (id: string) => document.getElementById(id);
  expect(isEditing(el('name'))).toBe(true);
  expect(isEditing(el('save'))).toBe(true);
  expect(isEditing(el('search'))).toBe(true);
  expect(isEditing(el('note'))).toBe(true);
  expect(isEditing(el('pick'))).toBe(true);
  expect(isEditing(el('play'))).toBe(false);
  expect(isEditing(el('link'))).toBe(false);
  expect(isEditing(document.body)).toBe(false);
  expect(isEditing(null)).toBe(false);
});

it('contenteditable is editing', () => {
  const div = document.createElement('div');
  div.contentEditable = 'true';
  document.body.append(div);
  expect(div.isContentEditable).toBe(true);
  expect(isEditing(div)).toBe(true);
});

it('the scroll and recheck rules', () => {
  expect(scrolledPastHalf({ scrollTop: 301, scrollHeight: 1000, clientHeight: 400 })).toBe(true);
  expect(scrolledPastHalf({ scrollTop: 300, scrollHeight: 1000, clientHeight: 400 })).toBe(false);
  expect(scrolledPastHalf({ scrollTop: 0, scrollHeight: 400, clientHeight: 400 })).toBe(false);
  expect(recheckDelay(true)).toBe(2000);
  expect(recheckDelay(false)).toBe(5000);
});
