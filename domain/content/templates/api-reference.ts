/** An HTTP API reference: conventions first (authentication, errors, pagination), then one page per endpoint. */
import { imageBlock, Template, TemplateContext } from './model';

function specLink(ctx: TemplateContext): string {
  return `[OpenAPI document](${ctx.file('openapi-spec')})`;
}

export const apiReference: Template = {
  id: 'api-reference',
  title: 'API reference',
  description:
    'Reference documentation for an HTTP API: overview, authentication, errors, pagination and a skeleton of endpoint pages.',
  slots: [
    {
      name: 'openapi-spec',
      description:
        'The OpenAPI document of the API (a file of the space), linked for download from the overview and the endpoint pages.',
      required: true,
    },
    {
      name: 'logo',
      description: 'Logo shown at the top of the overview (an image file of the space).',
      required: false,
    },
  ],
  pages: [
    {
      key: 'overview',
      title: 'Overview',
      emoji: '🧭',
      description: 'Base URL, versioning and conventions shared by every endpoint.',
      markdown: (
        ctx,
      ) => `${imageBlock(ctx.file('logo'), 'Logo')}The API is organised around resources and standard HTTP methods. It accepts and returns JSON, uses standard status codes and authenticates with bearer tokens.

The complete, machine-readable description is the ${specLink(ctx)}: import it into an API client or generate an SDK from it.

## Base URL

\`\`\`
https://api.example.com/v1
\`\`\`

All requests must use HTTPS. Plain HTTP requests are refused.

## Conventions

- Request and response bodies are JSON (\`Content-Type: application/json\`).
- Timestamps are ISO 8601 in UTC, for example \`2024-05-01T12:30:00.000Z\`.
- Identifiers are opaque strings: store them as they are, do not parse them.
- Unknown fields in a request body are refused with \`400\`.

## Versioning

The version is part of the path (\`/v1\`). Additive changes (new endpoints, new optional fields, new enum values) happen within a version, so clients must ignore fields they do not know. Breaking changes get a new version, announced at least six months ahead.

## Where to go next

1. [Authentication](${ctx.page('authentication')}): get a token and send it.
2. [Errors](${ctx.page('errors')}): what each status code means and how to react.
3. [Pagination](${ctx.page('pagination')}): how to read long lists.
4. [Endpoints](${ctx.page('endpoints')}): every operation, with examples.
`,
    },
    {
      key: 'authentication',
      title: 'Authentication',
      emoji: '🔑',
      description: 'API tokens and how to send them.',
      markdown: () => `Every request is authenticated with an API token sent as a bearer token.

## Create a token

Create tokens in **Settings → API tokens**. A token is shown once, when it is created: store it in a secret manager. Give each integration its own token so you can revoke one without breaking the others.

## Send the token

\`\`\`bash
curl https://api.example.com/v1/items \\
  -H "Authorization: Bearer $API_TOKEN"
\`\`\`

## Failures

| Status | Meaning |
|---|---|
| \`401\` | The header is missing, malformed, or the token is unknown, expired or revoked. |
| \`403\` | The token is valid but its owner lacks permission for this operation. |

## Keep tokens safe

- Never put a token in client-side code or in a repository.
- Rotate tokens regularly: create the new one, deploy it, then revoke the old one.
- Revoke a token immediately if it may have leaked.
`,
    },
    {
      key: 'errors',
      title: 'Errors',
      emoji: '⚠️',
      description: 'The error format and what each status code means.',
      markdown: () => `Errors use standard HTTP status codes and always carry the same JSON body.

## Error body

\`\`\`json
{
  "error": {
    "code": 400,
    "message": "title: must be at most 100 characters"
  }
}
\`\`\`

\`message\` is meant for developers: it names the field and the rule it broke. Do not parse it; branch on the status code.

## Status codes

| Status | Meaning | What to do |
|---|---|---|
| \`400\` | The request is invalid. | Fix the field named in the message. |
| \`401\` | No valid token. | Check the \`Authorization\` header. |
| \`403\` | Not allowed. | Use a token with the required permission. |
| \`404\` | Not found, or not visible to you. | Check the identifier and your access. |
| \`409\` | Conflicts with the current state. | Re-read the resource and retry. |
| \`429\` | Too many requests. | Wait for \`Retry-After\` seconds, then retry. |
| \`5xx\` | A problem on our side. | Retry with exponential backoff. |

## Retrying safely

\`GET\`, \`PUT\` and \`DELETE\` requests can be retried as they are. Retry \`POST\` requests only after checking that the first attempt did not take effect.
`,
    },
    {
      key: 'pagination',
      title: 'Pagination',
      emoji: '📄',
      description: 'Reading long lists with cursors.',
      markdown: () => `Endpoints that return lists are paginated with cursors.

## Parameters

| Parameter | Description |
|---|---|
| \`limit\` | Items per page, from 0 to 1000 (default 50). |
| \`page\` | The cursor from the previous response's \`next.page\`. |

## Response

\`\`\`json
{
  "items": [{ "id": "a1" }, { "id": "b2" }],
  "count": 120,
  "next": { "page": "eyJ2IjpbIjIwMjQiXX0.c2ln" }
}
\`\`\`

\`count\` is the total number of matching items. \`next\` is absent on the last page.

## Reading every page

\`\`\`js
let page;
do {
  const res = await fetch(\`https://api.example.com/v1/items?limit=100\${page ? \`&page=\${page}\` : ''}\`, { headers });
  const body = await res.json();
  handle(body.items);
  page = body.next?.page;
} while (page);
\`\`\`

Cursors are opaque and bound to the list and filters they came from: do not build or edit them.
`,
    },
    {
      key: 'endpoints',
      title: 'Endpoints',
      emoji: '🔌',
      description: 'Every operation of the API.',
      markdown: (
        ctx,
      ) => `One page per operation. Each lists the parameters, the request body, the response and an example. The ${specLink(ctx)} is the authoritative description.

## Items

| Method | Path | Operation |
|---|---|---|
| \`GET\` | \`/v1/items\` | [List items](${ctx.page('list-items')}) |
| \`POST\` | \`/v1/items\` | [Create an item](${ctx.page('create-item')}) |
| \`GET\` | \`/v1/items/{itemId}\` | [Retrieve an item](${ctx.page('get-item')}) |
| \`PATCH\` | \`/v1/items/{itemId}\` | [Update an item](${ctx.page('update-item')}) |
| \`DELETE\` | \`/v1/items/{itemId}\` | [Delete an item](${ctx.page('delete-item')}) |

> Rename "items" after your own resources and copy these pages for each one.
`,
      children: [
        {
          key: 'list-items',
          title: 'List items',
          markdown: (ctx) => `\`GET /v1/items\`

Returns the items the caller can see, newest first. The list is [paginated](${ctx.page('pagination')}).

## Query parameters

| Name | Type | Description |
|---|---|---|
| \`limit\` | integer | Items per page (0–1000, default 50). |
| \`page\` | string | Cursor from \`next.page\`. |

## Response

\`200\` with a list of items.

\`\`\`bash
curl "https://api.example.com/v1/items?limit=2" -H "Authorization: Bearer $API_TOKEN"
\`\`\`
`,
        },
        {
          key: 'create-item',
          title: 'Create an item',
          markdown: (ctx) => `\`POST /v1/items\`

## Request body

| Field | Type | Required | Description |
|---|---|---|---|
| \`title\` | string | yes | 1 to 100 characters. |
| \`description\` | string | no | Up to 2,000 characters. |

## Response

\`201\` with the created item, and its URL in the \`Location\` header. Invalid fields give \`400\` (see [Errors](${ctx.page('errors')})).

\`\`\`bash
curl -X POST https://api.example.com/v1/items \\
  -H "Authorization: Bearer $API_TOKEN" -H "Content-Type: application/json" \\
  -d '{"title": "First item"}'
\`\`\`
`,
        },
        {
          key: 'get-item',
          title: 'Retrieve an item',
          markdown: () => `\`GET /v1/items/{itemId}\`

## Path parameters

| Name | Description |
|---|---|
| \`itemId\` | The item's identifier. |

## Response

\`200\` with the item; \`404\` when it does not exist or is not visible to the caller.

\`\`\`json
{ "id": "a1", "title": "First item", "description": null, "createdAt": "2024-05-01T12:30:00.000Z" }
\`\`\`
`,
        },
        {
          key: 'update-item',
          title: 'Update an item',
          markdown: () => `\`PATCH /v1/items/{itemId}\`

Send only the fields to change; the others keep their value. Send \`null\` to clear an optional field.

## Request body

| Field | Type | Description |
|---|---|---|
| \`title\` | string | 1 to 100 characters. |
| \`description\` | string or null | Up to 2,000 characters. |

## Response

\`200\` with the updated item.
`,
        },
        {
          key: 'delete-item',
          title: 'Delete an item',
          markdown: () => `\`DELETE /v1/items/{itemId}\`

## Response

\`204\` with no body, also when the item was already deleted, so the call can be retried safely.
`,
        },
      ],
    },
  ],
};
