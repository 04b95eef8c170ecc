/**
 * The customization of every published site: there are no customization settings here, so every site
 * answers GitBook's defaults, a fixed object that has every key GitBook's documents require
 * (SiteCustomizationSettings of 0.137 and 0.202).
 */
import { z } from 'zod';

const color = (hex: string) => ({ light: hex, dark: hex });

export const SITE_CUSTOMIZATION = {
  styling: {
    theme: 'clean',
    primaryColor: color('#346DDB'),
    infoColor: color('#787878'),
    successColor: color('#00C950'),
    warningColor: color('#FE9A00'),
    dangerColor: color('#FB2C36'),
    corners: 'rounded',
    depth: 'subtle',
    links: 'default',
    font: 'Inter',
    monospaceFont: 'IBMPlexMono',
    codeTheme: {
      default: { light: 'default-light', dark: 'default-dark' },
      openapi: { light: 'default-light', dark: 'default-dark' },
    },
    background: 'plain',
    icons: 'regular',
    sidebar: { background: 'default', list: 'default' },
    search: 'subtle',
  },
  internationalization: { locale: 'en' },
  favicon: {},
  header: { preset: 'default', links: [] },
  footer: { groups: [] },
  themes: { default: 'light', toggeable: true },
  pdf: { enabled: false },
  feedback: { enabled: false },
  ai: { mode: 'none' },
  advancedCustomization: { enabled: false },
  trademark: { enabled: false },
  externalLinks: { target: 'self' },
  pagination: { enabled: true },
  pageActions: { externalAI: false, markdown: true, items: ['markdown'] },
  git: { showEditLink: false },
  privacyPolicy: {},
  socialPreview: {},
  socialAccounts: [],
  insights: { trackingCookie: false },
} as const;

export const siteCustomizationSchema = z.record(z.unknown()).openapi('SiteCustomizationSettings', {
  description: "GitBook's customization settings; every site answers the same defaults here",
});
