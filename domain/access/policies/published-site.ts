import type { SitePass } from '../targets';
import { definePolicy } from './policy';
import { sitePolicy } from './site';

export const publishedSitePolicy = definePolicy('publishedSite', async (ctx, target) => {
  // Members who view the site read its published view, all of it. Anyone else, from any organization,
  // needs the pass its visibility asks for (a share link's key, a visitor token) and sees what their claims show.
  const { site, passes } = target;
  if (!site.published) return { view: false, viewAll: false };
  const member = (await sitePolicy(ctx, { kind: 'site', site })).view;
  return { view: member || passes.includes(site.visibility as SitePass), viewAll: member };
});
