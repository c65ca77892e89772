/**
 * Mantine components as type-safe TanStack Router links (params checked against the route tree),
 * the pattern of TanStack Router's Mantine guide. `component={Link}` loses the param types.
 */
import {
  Anchor,
  Button,
  Card,
  type AnchorProps,
  type ButtonProps,
  type CardProps,
} from '@mantine/core';
import { createLink } from '@tanstack/react-router';
import { forwardRef, type AnchorHTMLAttributes } from 'react';

type A = AnchorHTMLAttributes<HTMLAnchorElement>;

const AnchorBase = forwardRef<HTMLAnchorElement, AnchorProps & A>((props, ref) => (
  <Anchor ref={ref} {...props} />
));
AnchorBase.displayName = 'AnchorBase';

const ButtonBase = forwardRef<HTMLAnchorElement, ButtonProps & A>((props, ref) => (
  <Button component="a" ref={ref} {...props} />
));
ButtonBase.displayName = 'ButtonBase';

const CardBase = forwardRef<HTMLAnchorElement, CardProps & A>((props, ref) => (
  <Card component="a" ref={ref} {...props} />
));
CardBase.displayName = 'CardBase';

export const AnchorLink = createLink(AnchorBase);
export const ButtonLink = createLink(ButtonBase);
export const CardLink = createLink(CardBase);
