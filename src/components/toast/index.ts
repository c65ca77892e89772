export { toast, type ToastKind } from './toast-store';
export { Toaster } from './toaster';
