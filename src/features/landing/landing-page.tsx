import { PublicPage } from '@/components/site/public-page';
import type { HeaderNavItem } from '@/components/site/site-header';
import { FeaturesSection } from './components/features-section';
import { HeroSection } from './components/hero-section';
import { MissionSection } from './components/mission-section';
import { PricingTeaser } from './components/pricing-teaser';
import { ProductHuntSection } from './components/product-hunt-section';
import { SignupCta } from './components/signup-cta';

const LANDING_NAV: HeaderNavItem[] = [
  { label: 'Features', target: 'features' },
  { label: 'Pricing', target: 'pricing' },
  { label: 'About', target: 'about' },
  { label: 'Compare', target: '/comparison' },
  { label: 'FAQ', target: '/faq' },
];

export function LandingPage() {
  return (
    <PublicPage nav={LANDING_NAV}>
      <HeroSection />
      <FeaturesSection />
      <PricingTeaser />
      <MissionSection />
      <SignupCta />
      <ProductHuntSection />
    </PublicPage>
  );
}
