/** A product guide: what the product is, a quickstart, task guides and a FAQ. */
import { imageBlock, Template } from './model';

export const productGuide: Template = {
  id: 'product-guide',
  title: 'Product guide',
  description: 'User documentation for a product: an introduction, a quickstart, task-oriented guides and a FAQ.',
  slots: [
    {
      name: 'logo',
      description: 'Product logo shown at the top of the introduction (an image file of the space).',
      required: false,
    },
    {
      name: 'screenshot',
      description: 'A screenshot of the product, shown in the quickstart (an image file of the space).',
      required: false,
    },
  ],
  pages: [
    {
      key: 'introduction',
      title: 'Introduction',
      emoji: '👋',
      description: 'What the product does and how this guide is organised.',
      markdown: (
        ctx,
      ) => `${imageBlock(ctx.file('logo'), 'Product logo')}Welcome! This guide explains what the product does, how to get it running and how to use it day to day.

> Replace this paragraph with two or three sentences that say who the product is for and which problem it solves. Readers decide within seconds whether they are in the right place.

## What you can do with it

- **Start in minutes**: the [Quickstart](${ctx.page('quickstart')}) takes you from nothing to a working set-up.
- **Adapt it to your needs**: the [Configuration](${ctx.page('configuration')}) guide lists every setting and its default.
- **Work as a team**: invite colleagues and share work as described in [Collaborating with your team](${ctx.page('collaborating')}).

## How this guide is organised

| Section | Read it when |
|---|---|
| [Quickstart](${ctx.page('quickstart')}) | you use the product for the first time |
| [Guides](${ctx.page('guides')}) | you want to complete a specific task |
| [FAQ](${ctx.page('faq')}) | something does not work as you expected |

## Getting help

If you cannot find an answer here, check the [FAQ](${ctx.page('faq')}) first, then contact support with the steps you took, what you expected and what happened instead.
`,
    },
    {
      key: 'quickstart',
      title: 'Quickstart',
      emoji: '🚀',
      description: 'From sign-up to a first result in about ten minutes.',
      markdown: (
        ctx,
      ) => `This page gets you from zero to a first result in about ten minutes. Each step says what to do and how to check that it worked.

## Before you begin

You need:

- an account (sign up on the product's website if you do not have one yet);
- a supported browser: the latest two versions of Chrome, Firefox, Safari or Edge;
- for the command-line steps, a terminal and Node.js 20 or later.

## Step 1: Install the command-line tool

\`\`\`bash
npm install --global @example/cli
example --version
\`\`\`

The second command prints the installed version. If it prints "command not found", see [Installation](${ctx.page('installation')}).

## Step 2: Sign in

\`\`\`bash
example login
\`\`\`

A browser window opens; approve the request and return to the terminal, which now shows the account you are signed in as.

## Step 3: Create your first project

\`\`\`bash
example init my-first-project
cd my-first-project
example start
\`\`\`

${imageBlock(ctx.file('screenshot'), 'The product right after the first project starts')}Open the address printed by \`example start\`: you should see your new project's dashboard.

## Next steps

- Tune the defaults in [Configuration](${ctx.page('configuration')}).
- Invite your team: [Collaborating with your team](${ctx.page('collaborating')}).
- Something failed? Look in the [FAQ](${ctx.page('faq')}).
`,
    },
    {
      key: 'guides',
      title: 'Guides',
      emoji: '📚',
      description: 'Step-by-step instructions for common tasks.',
      markdown: (
        ctx,
      ) => `Guides walk you through one task each, from start to finish. They assume you completed the [Quickstart](${ctx.page('quickstart')}).

## Available guides

- [Installation](${ctx.page('installation')}): every supported way to install, upgrade and uninstall.
- [Configuration](${ctx.page('configuration')}): settings, environment variables and configuration files.
- [Collaborating with your team](${ctx.page('collaborating')}): invitations, roles and sharing.

## Writing a new guide

> Keep to one task per guide. Start with what the reader will have achieved at the end, list the prerequisites, then number the steps. End with how to verify the result and where to go next.
`,
      children: [
        {
          key: 'installation',
          title: 'Installation',
          description: 'Install, upgrade and uninstall.',
          markdown: () => `## Supported platforms

| Platform | Minimum version | Notes |
|---|---|---|
| macOS | 13 (Ventura) | Apple silicon and Intel |
| Windows | 10 (22H2) | PowerShell 7 recommended |
| Linux | glibc 2.31 | Ubuntu 20.04, Debian 11, Fedora 38 or later |

## Install with npm

\`\`\`bash
npm install --global @example/cli
\`\`\`

## Install with a package manager

\`\`\`bash
# macOS
brew install example
# Windows
winget install Example.CLI
\`\`\`

## Upgrade

Run the same install command again; your configuration is kept. Check the installed version with \`example --version\`.

## Uninstall

\`\`\`bash
npm uninstall --global @example/cli
\`\`\`

Your configuration stays in \`~/.example\`; delete that folder to remove it as well.

## Troubleshooting

- **command not found**: the npm global folder is not on your \`PATH\`. Run \`npm prefix --global\` and add its \`bin\` folder to \`PATH\`.
- **permission denied** on Linux or macOS: do not use \`sudo\`; set npm's prefix to a folder you own instead.
`,
        },
        {
          key: 'configuration',
          title: 'Configuration',
          description: 'Settings, their defaults and where they are read from.',
          markdown:
            () => `Settings are read, in order of precedence, from command-line flags, environment variables, the project file \`example.json\` and finally the built-in defaults.

## The project file

\`\`\`json
{
  "name": "my-first-project",
  "region": "eu-west",
  "telemetry": false
}
\`\`\`

## Settings

| Setting | Environment variable | Default | Description |
|---|---|---|---|
| \`name\` | \`EXAMPLE_NAME\` | folder name | Display name of the project |
| \`region\` | \`EXAMPLE_REGION\` | \`us-east\` | Where the project's data is stored |
| \`telemetry\` | \`EXAMPLE_TELEMETRY\` | \`true\` | Send anonymous usage statistics |
| \`logLevel\` | \`EXAMPLE_LOG_LEVEL\` | \`info\` | One of \`debug\`, \`info\`, \`warn\`, \`error\` |

## Environments

Keep one project file per environment (\`example.staging.json\`, \`example.production.json\`) and choose it with \`--config\`. Never commit secrets: pass them as environment variables.
`,
        },
        {
          key: 'collaborating',
          title: 'Collaborating with your team',
          description: 'Invite people, give them the right role and share work.',
          markdown: () => `## Invite people

Open **Settings → Members**, choose **Invite** and enter one or more email addresses. Invitations expire after seven days.

## Roles

| Role | Can |
|---|---|
| Viewer | read everything in the project |
| Editor | change content and settings of the project |
| Admin | everything, including billing and deleting the project |

Give people the lowest role that lets them do their work; you can raise it later.

## Share work

Every item has a **Share** button that copies a link. People who are not members see a sign-in page first.

## Remove someone

In **Settings → Members**, open the member's menu and choose **Remove**. Their content stays in the project.
`,
        },
      ],
    },
    {
      key: 'faq',
      title: 'FAQ',
      emoji: '❓',
      description: 'Answers to the questions people ask most.',
      markdown: (ctx) => `## Is there a free plan?

Yes. The free plan covers one project and up to three members. Paid plans remove those limits.

## Which browsers are supported?

The latest two versions of Chrome, Firefox, Safari and Edge.

## How do I reset my password?

Choose **Forgot password** on the sign-in page; a reset link valid for one hour is sent to your email address.

## Where is my data stored?

In the region chosen in your project's [configuration](${ctx.page('configuration')}); it never leaves that region.

## The command-line tool says "command not found"

See the troubleshooting section of [Installation](${ctx.page('installation')}).

## How do I contact support?

Write to support with your project name, the steps you took, what you expected and what happened instead. Screenshots help.
`,
    },
  ],
};
