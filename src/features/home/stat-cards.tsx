import { IconCloudUpload, IconCrown, IconHeart, IconPlaylist } from '@tabler/icons-react';
import { StatGrid, type StatItem } from '@/components/stat-grid';

export interface StatCardsProps {
  tracks: number;
  liked: number;
  playlists: number;
  plan: string;
  loading: boolean;
}

/** Your Tracks, Liked Songs, Playlists, Current Plan (spec 2). */
export function StatCards({ tracks, liked, playlists, plan, loading }: StatCardsProps) {
  const items: StatItem[] = [
    { label: 'Your Tracks', value: String(tracks), icon: IconCloudUpload, color: 'ember' },
    { label: 'Liked Songs', value: String(liked), icon: IconHeart, color: 'pink' },
    { label: 'Playlists', value: String(playlists), icon: IconPlaylist, color: 'violet' },
    { label: 'Current Plan', value: plan, icon: IconCrown, color: 'yellow' },
  ];
  return <StatGrid items={items} loading={loading} />;
}
