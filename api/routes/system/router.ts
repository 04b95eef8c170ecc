/** The API itself: which release answers (GitBook's getApiInformation). */
import { RELEASE } from '../../../platform/release';
import type { ApiBuilder } from '../../operation';
import { apiInformationSchema, presentApiInformation } from '../../presenters/api-information';

export function systemRoutes(api: ApiBuilder): void {
  api.op(
    {
      method: 'get',
      path: '/v1/',
      operationId: 'getApiInformation',
      description:
        'Tells which release of the service answers: its version and build date. Needs no token (nothing in it is private). Changes nothing.',
      tags: ['system'],
      extension: true,
      anonymous: true,
      summary: 'Get the API information: release version and build date',
      responses: { 200: { description: 'the API information', schema: apiInformationSchema } },
    },
    async () => ({ status: 200, body: presentApiInformation(RELEASE) }),
  );
}
