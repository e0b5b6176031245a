import { describe, expect, it } from 'vitest';
import { exampleRequests } from '@/app/features/api/api-examples';
import { type PublicEndpointName, publicEndpoints } from '@/shared/contract/public-api';
import { curlOf, requestUrl } from '@/shared/rules/public-api-request';

const CHIP = 'C'.repeat(28);
const FLOW = 'F'.repeat(28);

describe('the /api page examples', () => {
  it('each passes its endpoint’s own query and body schemas', () => {
    const requests = exampleRequests({ apiKey: 'k-1', chip: CHIP, officialChip: null, flow: FLOW });
    for (const name of Object.keys(publicEndpoints) as PublicEndpointName[]) {
      const endpoint = publicEndpoints[name];
      const r = requests[name];
      expect(r.path, name).toBe(endpoint.path);
      expect(endpoint.query.safeParse(r.query).success, name).toBe(true);
      expect(endpoint.body.safeParse(r.body).success, name).toBe(true);
    }
    expect(requests.sendText.query).toEqual({ chip: CHIP, api_key: 'k-1' });
    expect(requests.sendFlow.body).toMatchObject({ flow: FLOW });
  });

  it('a curl that a shell reads back as the same URL and body', () => {
    const r = {
      path: '/send-text',
      query: { chip: CHIP, api_key: 'a&b' },
      body: { phone: '1', message: "it's" },
    };
    expect(requestUrl('https://x.com', r)).toBe(`https://x.com/api/v1/send-text?chip=${CHIP}&api_key=a%26b`);
    expect(curlOf('https://x.com', r)).toBe(
      [
        `curl -X POST 'https://x.com/api/v1/send-text?chip=${CHIP}&api_key=a%26b' \\`,
        `  -H 'Content-Type: application/json' \\`,
        `  -d '{"phone":"1","message":"it'\\''s"}'`,
      ].join('\n'),
    );
  });
});
