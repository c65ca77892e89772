import { parseError, type RestError } from './errors';
import type { Field, JsonStep } from './ast';

const NAME_CHAR = /[\p{L}\p{N}_ $]/u;

/** A tiny scanner shared by the select, filter, order and logic-tree parsers. */
export class Cursor {
  pos = 0;
  constructor(
    readonly input: string,
    readonly what: string,
  ) {}

  get done(): boolean {
    return this.pos >= this.input.length;
  }

  peek(offset = 0): string {
    return this.input[this.pos + offset] ?? '';
  }

  startsWith(s: string): boolean {
    return this.input.startsWith(s, this.pos);
  }

  eat(s: string): boolean {
    if (!this.startsWith(s)) return false;
    this.pos += s.length;
    return true;
  }

  expect(s: string): void {
    if (!this.eat(s)) throw this.fail(`expecting "${s}"`);
  }

  fail(expecting: string): RestError {
    const found = this.done ? 'end of input' : `"${this.peek()}"`;
    return parseError(this.what, this.input, `unexpected ${found} ${expecting}`, this.pos + 1);
  }

  /** A quoted ("...", with \" escapes) or bare name. */
  name(): string {
    if (this.peek() === '"') return this.quoted();
    const start = this.pos;
    while (!this.done && NAME_CHAR.test(this.peek())) this.pos++;
    if (this.pos === start) throw this.fail('expecting a name');
    return this.input.slice(start, this.pos).trim() || this.rejectBlank(start);
  }

  private rejectBlank(start: number): never {
    this.pos = start;
    throw this.fail('expecting a name');
  }

  quoted(): string {
    this.expect('"');
    let out = '';
    while (!this.done && this.peek() !== '"') {
      if (this.peek() === '\u0000') throw this.fail('(NUL is not allowed in a name)');
      if (this.peek() === '\\' && this.pos + 1 < this.input.length) this.pos++;
      out += this.peek();
      this.pos++;
    }
    this.expect('"');
    return out;
  }

  /** `name` followed by `->key` / `->>key` steps. */
  field(): Field {
    const name = this.name();
    const path: JsonStep[] = [];
    for (;;) {
      let arrow: JsonStep['arrow'];
      if (this.startsWith('->>')) arrow = '->>';
      else if (this.startsWith('->')) arrow = '->';
      else break;
      this.pos += arrow.length;
      const negative = this.startsWith('-') && /\d/.test(this.peek(1));
      if (negative) this.pos++;
      path.push({ arrow, key: (negative ? '-' : '') + this.name() });
    }
    return { name, path };
  }
}

/** Splits `a,b,"c,d",f(x,y)` on top-level commas, keeping quotes and nested parentheses intact. */
export function splitTopLevel(input: string, what: string, source = input): string[] {
  const parts: string[] = [];
  let depth = 0;
  let inQuote = false;
  let start = 0;
  for (let i = 0; i < input.length; i++) {
    const ch = input[i];
    if (inQuote) {
      if (ch === '\\') i++;
      else if (ch === '"') inQuote = false;
    } else if (ch === '"') inQuote = true;
    else if (ch === '(') depth++;
    else if (ch === ')') {
      depth--;
      if (depth < 0) throw parseError(what, source, 'unexpected ")"', i + 1);
    } else if (ch === ',' && depth === 0) {
      parts.push(input.slice(start, i));
      start = i + 1;
    }
  }
  if (inQuote || depth !== 0)
    throw parseError(
      what,
      source,
      'unexpected end of input expecting closing quote or ")"',
      input.length,
    );
  parts.push(input.slice(start));
  return parts;
}

/** Removes surrounding double quotes (with \" and \\ escapes) from a list element. */
export function unquote(value: string): string {
  if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) {
    return value.slice(1, -1).replace(/\\(.)/g, '$1');
  }
  return value;
}
