import { describe, expect, it } from 'vitest';
import { HELP_TOPICS, helpVideoUrl } from '@/app/ui/help-topics';

describe('help topics', () => {
  it('have unique ids, a title and a text', () => {
    expect(new Set(HELP_TOPICS.map((t) => t.id)).size).toBe(HELP_TOPICS.length);
    for (const t of HELP_TOPICS) expect(t.title && t.text).toBeTruthy();
  });

  it('take the video from the configured URL, per topic when it says {topic}', () => {
    expect(helpVideoUrl(null, 'atendimento')).toBeNull();
    expect(helpVideoUrl('https://v.example/canal', 'atendimento')).toBe('https://v.example/canal');
    expect(helpVideoUrl('/media/ajuda/{topic}.mp4', 'chips')).toBe('/media/ajuda/chips.mp4');
  });
});
