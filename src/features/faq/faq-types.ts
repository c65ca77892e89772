export type FaqCategory = 'general' | 'music' | 'payouts' | 'account';

export interface FaqEntry {
  id: string;
  category: FaqCategory;
  question: string;
  answer: string;
}
