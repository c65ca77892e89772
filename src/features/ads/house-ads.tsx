import { CloseButton, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconSparkles } from '@tabler/icons-react';
import { useEffect, useId, useRef, useState } from 'react';
import { ButtonLink } from '@/components/router-links';
import { useRecentTracks } from '@/data';
import { usePaymentsStatus } from '@/data/payments-status';
import { getPlan } from '@/lib/plans';
import {
  AD_CHECK_INTERVAL_MS,
  EXIT_INTENT_MIN_SCROLL_PX,
  isEditing,
  POPUP_DELAY_MS,
  recheckDelay,
  scrolledPastHalf,
} from './ad-rules';
import { isLoading, isSubstantialContent } from './content-check';
import './house-ads.css';

export interface HouseAdsProps {
  /** The page's scrolling main element (its content is measured, its scroll watched). */
  mainId?: string;
  /** An element the pop-up must never cover (the player bar). */
  avoidSelector?: string;
}

/**
 * Soundloft's own promotions for the free plan (spec 9, DECISIONS.md): a banner and a timed
 * pop-up, shown only while the page's content is substantial. Served from this origin with no
 * third-party script and no tracking; the route loads this module lazily, for free plans only.
 * The pop-up is a labelled non-modal dialog above the player bar: Escape or its close button
 * hides it. It takes focus only when nothing else has it: it opens by a timer, not by the reader.
 * Both sell plans: they are shown only once the server has said it sells them (`payments-status`;
 * none with PAYMENTS=off, docs/production.md).
 */
export default function HouseAds(props: HouseAdsProps) {
  const payments = usePaymentsStatus();
  return payments.offersUpgrades ? <PlanAds {...props} /> : null;
}

function PlanAds({ mainId = 'main', avoidSelector = '.dashboard-player' }: HouseAdsProps) {
  const [eligible, setEligible] = useState(false);
  const [popup, setPopup] = useState<'hidden' | 'open' | 'closed'>('hidden');
  const eligibleRef = useRef(false);
  const maxScroll = useRef(0);

  // The ad check, every second: is the page's content (ads left out) substantial?
  useEffect(() => {
    const check = () => {
      const main = document.getElementById(mainId);
      const ok = main ? isSubstantialContent(main) : false;
      eligibleRef.current = ok;
      setEligible(ok);
    };
    check();
    const timer = window.setInterval(check, AD_CHECK_INTERVAL_MS);
    return () => window.clearInterval(timer);
  }, [mainId]);

  // The pop-up's triggers, until it has been shown once.
  useEffect(() => {
    if (popup !== 'hidden') return;
    const main = document.getElementById(mainId);
    if (!main) return;
    // Not while the reader fills in a form: the timer looks again, a scroll or exit intent
    // opens it later.
    const open = () => {
      const ok = eligibleRef.current && !isEditing(document.activeElement);
      if (ok) setPopup('open');
      return ok;
    };
    let timer = 0;
    const timed = () => {
      if (open()) return;
      timer = window.setTimeout(timed, recheckDelay(isLoading(main)));
    };
    timer = window.setTimeout(timed, POPUP_DELAY_MS);
    const onScroll = () => {
      maxScroll.current = Math.max(maxScroll.current, main.scrollTop);
      if (scrolledPastHalf(main)) open();
    };
    const onLeave = (e: MouseEvent) => {
      if (
        e.relatedTarget === null &&
        e.clientY <= 0 &&
        maxScroll.current > EXIT_INTENT_MIN_SCROLL_PX
      ) {
        open();
      }
    };
    main.addEventListener('scroll', onScroll, { passive: true });
    document.addEventListener('mouseout', onLeave);
    return () => {
      window.clearTimeout(timer);
      main.removeEventListener('scroll', onScroll);
      document.removeEventListener('mouseout', onLeave);
    };
  }, [mainId, popup]);

  return (
    <>
      {eligible ? <HouseAdBanner /> : null}
      {popup === 'open' && eligible ? (
        <HouseAdPopup avoidSelector={avoidSelector} onClose={() => setPopup('closed')} />
      ) : null}
    </>
  );
}

function HouseAdBanner() {
  const premium = getPlan('premium');
  return (
    <Paper
      component="aside"
      data-house-ad="banner"
      aria-label="Advertisement: Soundloft Premium"
      className="house-ad-banner"
      radius="lg"
      p="md"
      mt="xl"
    >
      <Group justify="space-between" gap="md">
        <Group gap="sm" wrap="nowrap" style={{ flex: '1 1 280px' }}>
          <IconSparkles size={24} aria-hidden color="var(--mantine-color-ember-4)" />
          <Stack gap={2}>
            <Text size="xs" tt="uppercase" c="dimmed" fw={700}>
              Soundloft promotion
            </Text>
            <Text fw={600}>
              Premium: {premium.audioQuality.label.toLowerCase()}, offline downloads, no ads —{' '}
              {premium.priceEur} EUR a month.
            </Text>
          </Stack>
        </Group>
        <ButtonLink to="/subscription" size="sm">
          See plans
        </ButtonLink>
      </Group>
    </Paper>
  );
}

function HouseAdPopup({ avoidSelector, onClose }: { avoidSelector: string; onClose: () => void }) {
  const titleId = useId();
  const bodyId = useId();
  const closeRef = useRef<HTMLButtonElement>(null);
  const [bottom, setBottom] = useState(16);
  const recent = useRecentTracks(8);
  const artist = recent?.[0]?.artist ?? null;

  // Never over the player bar: float above whatever height it has.
  useEffect(() => {
    const avoid = document.querySelector(avoidSelector);
    if (!avoid) return;
    const measure = () => setBottom(Math.round(avoid.getBoundingClientRect().height) + 16);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(avoid);
    return () => observer.disconnect();
  }, [avoidSelector]);

  // The pop-up opens by a timer, never by the reader's action, so it must not take focus from
  // whatever the reader is using (a menu, a form field, a dialog would close or lose input).
  // Focus moves to it only when nothing has focus (closing it then leaves focus on the page).
  useEffect(() => {
    const active = document.activeElement;
    if (active === null || active === document.body) closeRef.current?.focus();
  }, []);

  const basic = getPlan('basic');
  return (
    <Paper
      role="dialog"
      aria-modal="false"
      aria-labelledby={titleId}
      aria-describedby={bodyId}
      data-house-ad="popup"
      className="house-ad-popup"
      style={{ bottom }}
      radius="lg"
      p="lg"
      shadow="xl"
      onKeyDown={(e) => {
        if (e.key === 'Escape') onClose();
      }}
    >
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start" wrap="nowrap">
          <div>
            <Text size="xs" tt="uppercase" c="dimmed" fw={700}>
              Soundloft promotion
            </Text>
            <Title order={2} fz="lg" id={titleId}>
              {artist ? `Discover ${artist}` : 'Listen without interruptions'}
            </Title>
          </div>
          <CloseButton ref={closeRef} aria-label="Close advertisement" onClick={onClose} />
        </Group>
        <Text size="sm" c="gray.3" id={bodyId}>
          {artist
            ? `New on Soundloft: fresh tracks by ${artist}. Or go ad-free with Basic for ${basic.priceEur} EUR a month.`
            : `Go ad-free with Basic for ${basic.priceEur} EUR a month, with high quality audio.`}
        </Text>
        <Group gap="sm">
          {artist ? (
            <ButtonLink
              to="/artist/$artistName"
              params={{ artistName: artist }}
              size="sm"
              onClick={onClose}
            >
              Listen now
            </ButtonLink>
          ) : null}
          <ButtonLink
            to="/subscription"
            size="sm"
            variant={artist ? 'default' : 'filled'}
            onClick={onClose}
          >
            Remove ads
          </ButtonLink>
        </Group>
      </Stack>
    </Paper>
  );
}
