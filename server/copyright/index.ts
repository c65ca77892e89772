export { copyrightTick, startCopyrightJobs } from './jobs';
export type { CopyrightJobsOptions } from './jobs';
export { createDevClockApp } from './dev-clock';
export { renderCopyrightMail } from './mail';
export type { OutboxMail } from './mail';
