/**
 * The invitation's words: a plain-text part and an HTML part with the first-token link. Every name in it comes from
 * users (an organization's title, a display name): each is made one line before it goes near a header, and escaped
 * in the HTML.
 */
import type { InvitationMailParams } from '../../entities/MailMessage';

/** Line breaks (and other control characters) become spaces: a name can neither add a header nor a line. */
export function oneLine(value: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed
  return value.replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, ' ').trim();
}

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export interface InvitationText {
  subject: string;
  text: string;
  html: string;
}

export function invitationText(params: InvitationMailParams, link: string, expiresAt: Date): InvitationText {
  const organization = oneLine(params.organizationTitle);
  const inviter = oneLine(params.inviterName);
  const as = params.role ? `as ${params.role}` : 'as a guest';
  const until = expiresAt.toISOString();
  const subject = `${inviter} invited you to ${organization}`;
  const text = [
    `${inviter} invited you to ${organization} on the documentation platform, ${as}.`,
    '',
    'Your first API token is issued once, by a POST to this link:',
    '',
    `  curl -X POST ${link}`,
    '',
    `The link works once, until ${until}. Keep the token it answers: it is shown only then.`,
    '',
  ].join('\r\n');
  const html = `<!doctype html><html><body>
<p>${escapeHtml(inviter)} invited you to <strong>${escapeHtml(organization)}</strong> on the documentation platform, ${as}.</p>
<p>Your first API token is issued once, by a POST to this link:</p>
<pre>curl -X POST ${escapeHtml(link)}</pre>
<p>The link works once, until ${until}. Keep the token it answers: it is shown only then.</p>
</body></html>`;
  return { subject, text, html };
}
