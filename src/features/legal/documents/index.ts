import type { LegalDocument } from '../legal-types';
import { accessibilityStatement } from './accessibility-statement';
import { community } from './community';
import { cookiePolicy } from './cookie-policy';
import { copyrightPolicy } from './copyright-policy';
import { musicLicensing } from './music-licensing';
import { privacyPolicy } from './privacy-policy';
import { termsOfService } from './terms-of-service';

/** Every legal page, in the order of the spec's public route list. */
export const LEGAL_DOCUMENTS: readonly LegalDocument[] = [
  termsOfService,
  privacyPolicy,
  copyrightPolicy,
  community,
  cookiePolicy,
  musicLicensing,
  accessibilityStatement,
];
