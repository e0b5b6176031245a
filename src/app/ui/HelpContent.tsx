import { Anchor, AspectRatio, Stack, Text } from '@mantine/core';
import { IconExternalLink } from '@tabler/icons-react';
import { useAppConfig } from '@/app/lib/app-config';
import { messages } from '@/shared/messages';
import { Dialog } from './Dialog';
import { type HelpTopic, type HelpTopicId, helpTopic, helpVideoUrl } from './help-topics';

// The help's content and its dialog: 'Saiba mais' (HelpDialog.tsx) loads this when pointed at or first
// opened, so a first screen carries only its button; /ajuda shows the content inline.

/** A video file plays in <video>; any other address is a player page (YouTube, Vimeo…) shown in a frame. */
const isVideoFile = (url: URL) => /\.(mp4|webm|ogg|ogv|mov|m4v)$/i.test(url.pathname);

/**
 * A topic's help: its video when one is configured, and its text. The video plays inside the dialog, also
 * from another site: the server's CSP allows the configured video's origin (media and frames) and no other.
 */
export function HelpContent({ topic }: { topic: HelpTopicId | HelpTopic }) {
  const config = useAppConfig();
  const { id, title, text } = typeof topic === 'string' ? helpTopic(topic) : topic;
  const video = helpVideoUrl(config?.help_video_url, id);
  const url = video ? new URL(video, window.location.href) : null;
  const elsewhere = url !== null && url.origin !== window.location.origin;
  return (
    <Stack gap="sm">
      {url &&
        (isVideoFile(url) || !elsewhere ? (
          // biome-ignore lint/a11y/useMediaCaption: the help videos are recorded by each deployment, without captions.
          <video src={url.href} controls preload="metadata" style={{ width: '100%', borderRadius: 8 }} />
        ) : (
          <AspectRatio ratio={16 / 9}>
            <iframe
              src={url.href}
              title={messages.helpVideoTitle(title)}
              allow="encrypted-media; picture-in-picture; fullscreen"
              allowFullScreen
              referrerPolicy="strict-origin-when-cross-origin"
              style={{ border: 0, borderRadius: 8 }}
            />
          </AspectRatio>
        ))}
      <Text>{text}</Text>
      {url && elsewhere && (
        <Anchor href={url.href} target="_blank" rel="noopener noreferrer">
          <IconExternalLink size={16} aria-hidden style={{ verticalAlign: 'text-bottom' }} />{' '}
          {messages.helpVideoOpen}
        </Anchor>
      )}
    </Stack>
  );
}

/** A topic's help in a dialog, titled by the topic. */
export function HelpTopicDialog({
  topic,
  opened,
  onClose,
}: {
  topic: HelpTopicId | HelpTopic;
  opened: boolean;
  onClose(): void;
}) {
  return (
    <Dialog
      opened={opened}
      onClose={onClose}
      title={typeof topic === 'string' ? helpTopic(topic).title : topic.title}
    >
      <HelpContent topic={topic} />
    </Dialog>
  );
}
