/** A help-centre knowledge base: a home page, categories of short articles, and a hidden article template. */
import { imageBlock, Template } from './model';

export const knowledgeBase: Template = {
  id: 'knowledge-base',
  title: 'Knowledge base',
  description:
    'A help centre: a home page, categories of short self-service articles and a hidden template for new articles.',
  slots: [
    {
      name: 'logo',
      description: 'Logo shown at the top of the home page (an image file of the space).',
      required: false,
    },
  ],
  pages: [
    {
      key: 'home',
      title: 'Home',
      emoji: '🏠',
      description: 'Find answers by category or by search.',
      markdown: (ctx) => `${imageBlock(ctx.file('logo'), 'Logo')}# How can we help?

Search for a few words that describe your problem, or browse the categories below.

## Categories

- **[Getting started](${ctx.page('getting-started')})**: creating an account, signing in and setting up your profile.
- **[Account and billing](${ctx.page('account-billing')})**: plans, payment details and invoices.
- **[Troubleshooting](${ctx.page('troubleshooting')})**: error messages and what to do about them.

## Popular articles

- [Resetting your password](${ctx.page('reset-password')})
- [Changing your plan](${ctx.page('change-plan')})
- [Common error messages](${ctx.page('error-messages')})

## Still stuck?

[Contact support](${ctx.page('contact-support')}): we answer within one business day.
`,
    },
    {
      key: 'getting-started',
      title: 'Getting started',
      emoji: '🌱',
      description: 'First steps with your account.',
      markdown: (ctx) => `Everything you need in your first days.

- [Creating your account](${ctx.page('create-account')})
- [Resetting your password](${ctx.page('reset-password')})
- [Setting up your profile](${ctx.page('profile')})
`,
      children: [
        {
          key: 'create-account',
          title: 'Creating your account',
          markdown: (ctx) => `## Steps

1. Go to the sign-up page and enter your work email address.
2. Open the confirmation email and choose **Confirm my address**. The link is valid for 24 hours.
3. Choose a password of at least 12 characters, or sign in with your company's single sign-on.
4. Name your workspace. You can change the name later.

## Did not receive the email?

Check your spam folder, then ask for a new email from the sign-up page. If your company filters incoming mail, ask your IT team to allow our sending domain.

## Related articles

- [Setting up your profile](${ctx.page('profile')})
- [Resetting your password](${ctx.page('reset-password')})
`,
        },
        {
          key: 'reset-password',
          title: 'Resetting your password',
          markdown: (ctx) => `## Steps

1. On the sign-in page, choose **Forgot password**.
2. Enter the email address of your account.
3. Open the email and choose **Reset password**. The link is valid for one hour and works once.
4. Choose a new password. You are signed out of every other device.

## If your company uses single sign-on

Your password is managed by your company's identity provider: contact your IT team instead.

## Related articles

- [Common error messages](${ctx.page('error-messages')})
`,
        },
        {
          key: 'profile',
          title: 'Setting up your profile',
          markdown: () => `## Your name and photo

Open **Profile** from the menu at the top right. Your name and photo are shown to the people you work with.

## Notifications

Under **Profile → Notifications**, choose which events send you an email: mentions, assignments and weekly summaries can each be turned off.

## Language and time zone

Dates and times are shown in the time zone set in your profile. The interface language follows your browser unless you pick one here.
`,
        },
      ],
    },
    {
      key: 'account-billing',
      title: 'Account and billing',
      emoji: '💳',
      description: 'Plans, payment details and invoices.',
      markdown: (ctx) => `Only workspace administrators can change billing settings.

- [Changing your plan](${ctx.page('change-plan')})
- [Updating payment details](${ctx.page('payment-details')})
- [Downloading invoices](${ctx.page('invoices')})
`,
      children: [
        {
          key: 'change-plan',
          title: 'Changing your plan',
          markdown: () => `## Upgrade

Open **Settings → Billing**, choose **Change plan** and select the new plan. The change applies immediately; you pay the difference for the rest of the current period.

## Downgrade

A downgrade takes effect at the end of the current billing period. If your workspace uses more than the new plan allows (members, projects, storage), you are asked to reduce usage first.

## Cancel

Choosing the free plan cancels your subscription. Your data is kept.
`,
        },
        {
          key: 'payment-details',
          title: 'Updating payment details',
          markdown: () => `## Change the card

Open **Settings → Billing → Payment method** and choose **Replace card**. The new card is used from the next invoice on.

## Pay by invoice

Annual plans can be paid by bank transfer. Ask support to switch your workspace to invoicing.

## A payment failed

We retry a failed payment three times over a week and email the billing contact each time. Update the card to settle the balance at once.
`,
        },
        {
          key: 'invoices',
          title: 'Downloading invoices',
          markdown: () => `## Download

Every invoice is listed under **Settings → Billing → Invoices**; choose one to download it as a PDF.

## Company details on invoices

Add your company name, address and VAT number under **Settings → Billing → Company details**. Changes apply to future invoices only.
`,
        },
      ],
    },
    {
      key: 'troubleshooting',
      title: 'Troubleshooting',
      emoji: '🛠️',
      description: 'Fix common problems yourself.',
      markdown: (ctx) => `- [Common error messages](${ctx.page('error-messages')})
- [Contacting support](${ctx.page('contact-support')})
`,
      children: [
        {
          key: 'error-messages',
          title: 'Common error messages',
          markdown: (ctx) => `## "Your session has expired"

You were signed out after a period of inactivity or because your password changed. Sign in again.

## "You do not have access to this page"

The page belongs to a workspace or project you are not a member of. Ask its administrator to invite you.

## "Something went wrong"

A temporary problem on our side. Wait a minute and try again; if it persists, [contact support](${ctx.page('contact-support')}) and include the time it happened.

## The page does not load at all

Clear your browser's cache, disable extensions that block content, and check that your network allows our domain.
`,
        },
        {
          key: 'contact-support',
          title: 'Contacting support',
          markdown: () => `## Before you write

Search this knowledge base: most questions already have an article.

## What to include

- your workspace name and the email address of your account;
- what you were trying to do, step by step;
- what you expected, and what happened instead;
- screenshots or the exact error message.

## Response times

We answer within one business day, and within four hours on paid plans.
`,
        },
      ],
    },
    {
      key: 'article-template',
      title: 'Article template',
      hidden: true,
      description: 'Copy this page to start a new article. Hidden from readers.',
      markdown:
        () => `> Title the article with the task or the question, in the reader's words: "Resetting your password", not "Password management".

One or two sentences on what the reader will have achieved.

## Steps

1. One action per step, starting with a verb.
2. Name buttons and menus exactly as they appear, in **bold**.

## If it does not work

The most common problem and how to fix it.

## Related articles

- Links to the next thing readers usually need.
`,
    },
  ],
};
