import { afterAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers';

const servers: TestServer[] = [];
afterAll(() => Promise.all(servers.map((s) => s.close())));

describe('get-app-config', () => {
  it('answers the configured plan-management and help-video URLs, or null', async () => {
    const configured = await startTestServer({
      PLAN_MANAGEMENT_URL: 'https://planos.example.com/conta',
      HELP_VIDEO_URL: 'https://videos.example.com/{topic}.mp4',
      MEDIA_MAX_MB: '5',
      SUPPORT_URL: 'https://wa.me/5511900000000',
    });
    servers.push(configured);
    await configured.reset();
    expect(await configured.call('get-app-config', {}, await configured.login('atendente@demo.com'))).toEqual(
      {
        plan_management_url: 'https://planos.example.com/conta',
        help_video_url: 'https://videos.example.com/{topic}.mp4',
        support_url: 'https://wa.me/5511900000000',
        media_max_mb: 5,
      },
    );
    expect((await configured.post('get-app-config', {})).status).toBe(401);

    const plain = await startTestServer();
    servers.push(plain);
    await plain.reset();
    expect(await plain.call('get-app-config', {}, await plain.login('dono@demo.com'))).toEqual({
      plan_management_url: null,
      help_video_url: null,
      support_url: null,
      media_max_mb: 16,
    });
  });
});
