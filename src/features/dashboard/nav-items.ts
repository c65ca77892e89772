import {
  IconChartLine,
  IconCompass,
  IconCreditCard,
  IconHeart,
  IconHome,
  IconLibrary,
  IconShieldLock,
  IconUpload,
  IconWallet,
  type Icon,
} from '@tabler/icons-react';

export interface NavItem {
  label: string;
  to:
    | '/home'
    | '/explore'
    | '/library'
    | '/upload'
    | '/payouts'
    | '/insights'
    | '/subscription'
    | '/admin';
  search?: { tab: 'liked' };
  icon: Icon;
}

export interface NavGroup {
  label: string;
  adminOnly?: boolean;
  items: NavItem[];
}

/** Spec 2: Discover, Collection, Studio, Administration (admins only). */
export const NAV_GROUPS: readonly NavGroup[] = [
  {
    label: 'Discover',
    items: [
      { label: 'Home', to: '/home', icon: IconHome },
      { label: 'Explore', to: '/explore', icon: IconCompass },
    ],
  },
  {
    label: 'Collection',
    items: [
      { label: 'Library', to: '/library', icon: IconLibrary },
      { label: 'Liked Songs', to: '/library', search: { tab: 'liked' }, icon: IconHeart },
      { label: 'Upload', to: '/upload', icon: IconUpload },
    ],
  },
  {
    label: 'Studio',
    items: [
      { label: 'Payouts', to: '/payouts', icon: IconWallet },
      { label: 'Insights', to: '/insights', icon: IconChartLine },
      { label: 'Subscription', to: '/subscription', icon: IconCreditCard },
    ],
  },
  {
    label: 'Administration',
    adminOnly: true,
    items: [{ label: 'Admin', to: '/admin', icon: IconShieldLock }],
  },
];

/** Whether the item is the page being shown (Library and Liked Songs share a path). */
export function isActive(item: NavItem, pathname: string, tab: string | undefined): boolean {
  if (item.to !== pathname) return false;
  if (item.to !== '/library') return true;
  return item.search ? tab === item.search.tab : tab !== 'liked';
}
