import { Anchor, Button, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconExternalLink, IconHelpCircle } from '@tabler/icons-react';
import { useAppConfig } from '@/app/lib/app-config';
import { labels } from '@/shared/messages';
import { type HelpTopicId, helpTopic, helpVideoUrl } from './help-topics';
import { lazyDialog } from './lazy-dialog';

// 'Saiba mais' sits on first screens: its dialog (Mantine's modal machinery) loads when first opened.
const Dialog = lazyDialog(() => import('./Dialog').then((m) => m.Dialog));

/** A topic's help: its video when one is configured, and its text. */
export function HelpContent({ topic }: { topic: HelpTopicId }) {
  const config = useAppConfig();
  const { id, text } = helpTopic(topic);
  const video = helpVideoUrl(config?.help_video_url, id);
  // The CSP plays media from this origin only; a video hosted elsewhere opens in a new tab.
  const playable = video !== null && new URL(video, window.location.href).origin === window.location.origin;
  return (
    <Stack gap="sm">
      {video && playable && (
        // biome-ignore lint/a11y/useMediaCaption: the help videos are recorded by each deployment, without captions.
        <video src={video} controls preload="metadata" style={{ width: '100%', borderRadius: 8 }} />
      )}
      <Text>{text}</Text>
      {video && !playable && (
        <Anchor href={video} target="_blank" rel="noopener noreferrer">
          <IconExternalLink size={16} aria-hidden style={{ verticalAlign: 'text-bottom' }} />{' '}
          {labels.common.assistirAoVideo}
        </Anchor>
      )}
    </Stack>
  );
}

/** The reusable 'Saiba mais' button and its help dialog (spec 1 "Shell elements"). */
export function SaibaMais({ topic }: { topic: HelpTopicId }) {
  const [opened, { open, close }] = useDisclosure(false);
  return (
    <>
      <Button variant="light" leftSection={<IconHelpCircle size={18} aria-hidden />} onClick={open}>
        {labels.common.saibaMais}
      </Button>
      <Dialog opened={opened} onClose={close} title={helpTopic(topic).title}>
        <HelpContent topic={topic} />
      </Dialog>
    </>
  );
}
