/** Spec section 3: changelog release entry. */
export interface ChangelogRelease {
  version: string;
  /** ISO date. */
  date: string;
  title: string;
  description: string;
  /** Name of an icon from @tabler/icons-react, without the 'Icon' prefix, e.g. 'Rocket'. */
  icon: string;
  /** A Mantine colour name, e.g. 'violet'. */
  color: string;
  features: string[];
  improvements: string[];
  fixes: string[];
}

export interface ComingSoonItem {
  title: string;
  description: string;
}
