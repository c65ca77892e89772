export { NoticeForm } from './notice-form';
export { CounterNoticePage } from './counter-notice-page';
export { AdminNoticePage } from './admin-notice-page';
export { LegalActionPage } from './legal-action-page';
export { BusinessDaysPage } from './business-days-page';
