/**
 * Which e-mail domains an organization may claim (`emailDomains`): a user whose address is in a claimed
 * domain finds the organization through `GET /v1/email-domains/{domain}/orgs`, so a claim must be the
 * organization's own. An admin adds only the domain of their own e-mail address, and never a public mail
 * provider's (gmail.com and the like: its users are strangers to each other). Domains already claimed
 * may stay or go; docs/decisions/organizations.md has the rule.
 */
import freeEmailDomains from 'free-email-domains';
import { badRequest } from '../errors';

/** The domain of an e-mail address, lower case. */
export function emailDomainOf(email: string): string {
  return email.slice(email.lastIndexOf('@') + 1).toLowerCase();
}

const PUBLIC_MAIL_PROVIDERS: ReadonlySet<string> = new Set(freeEmailDomains);

/** The claim as stored: lower case, each domain once. */
export function normalizeDomains(domains: readonly string[]): string[] {
  return [...new Set(domains.map((d) => d.trim().toLowerCase()))];
}

/**
 * 400 unless every domain of `next` that `previous` lacks is the admin's own and no public provider's.
 * `adminEmail` is null for a caller without an address (an integration): it adds no domain.
 */
export function assertClaimable(previous: readonly string[], next: readonly string[], adminEmail: string | null): void {
  const own = adminEmail ? emailDomainOf(adminEmail) : null;
  for (const domain of next) {
    if (previous.includes(domain)) continue;
    if (PUBLIC_MAIL_PROVIDERS.has(domain))
      throw badRequest(`emailDomains: "${domain}" is a public mail provider; claim your organization's own domain`);
    if (domain !== own)
      throw badRequest(
        `emailDomains: "${domain}" must be the domain of your own e-mail address (${own ?? 'you have none'}); an admin of that domain can add it`,
      );
  }
}
