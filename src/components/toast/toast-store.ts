/**
 * Toasts (spec 9): top-right, default 4000 ms, success 3000 ms, error 5000 ms. A tiny external
 * store so any layer below the UI can raise one without a provider.
 */
export type ToastKind = 'info' | 'success' | 'error';

export interface Toast {
  id: number;
  kind: ToastKind;
  message: string;
}

export const TOAST_DURATION_MS: Record<ToastKind, number> = {
  info: 4000,
  success: 3000,
  error: 5000,
};

let toasts: Toast[] = [];
let nextId = 1;
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((l) => l());

export function subscribeToasts(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export const getToasts = (): Toast[] => toasts;

export function dismissToast(id: number): void {
  toasts = toasts.filter((t) => t.id !== id);
  emit();
}

function show(kind: ToastKind, message: string): number {
  const id = nextId++;
  toasts = [...toasts, { id, kind, message }].slice(-5);
  emit();
  setTimeout(() => dismissToast(id), TOAST_DURATION_MS[kind]);
  return id;
}

export const toast = {
  info: (message: string) => show('info', message),
  success: (message: string) => show('success', message),
  error: (message: string) => show('error', message),
};
