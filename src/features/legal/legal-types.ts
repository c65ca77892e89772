/** A legal or policy page, kept as data so every page shares one layout and one table of contents. */
export interface LegalBlock {
  /** Paragraphs of plain text. */
  paragraphs?: string[];
  /** A bulleted list. */
  items?: string[];
}

export interface LegalSection extends LegalBlock {
  /** Anchor id, kebab-case, unique within the document. */
  id: string;
  heading: string;
  /** Optional sub-sections (rendered as h3). */
  subsections?: (LegalBlock & { heading: string })[];
}

export interface LegalDocument {
  /** Route path without the leading slash, e.g. 'terms-of-service'. */
  slug: string;
  /** The page's h1. */
  title: string;
  /** ISO date the text was last updated. */
  lastUpdated: string;
  /** One or two sentences under the title. */
  summary: string;
  sections: LegalSection[];
  /** Contact line at the end: an e-mail address and the promised response time. */
  contact: { email: string; responseTime: string };
}
