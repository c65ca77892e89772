export { NoticeForm } from './notice-form';
export { CounterNoticePage } from './counter-notice-page';
export { AdminNoticePage } from './admin-notice-page';
