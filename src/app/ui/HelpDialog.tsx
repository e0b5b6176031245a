import { Button } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconHelpCircle } from '@tabler/icons-react';
import { labels } from '@/shared/messages';
import type { HelpTopic, HelpTopicId } from './help-topics';
import { lazyDialog } from './lazy-dialog';

// 'Saiba mais' sits on first screens: its dialog and the help's content (HelpContent.tsx) load when the
// button is pointed at or focused, or at the first opening.
const HelpTopicDialog = lazyDialog(() => import('./HelpContent').then((m) => m.HelpTopicDialog));
const preload = () => void HelpTopicDialog.preload().catch(() => undefined);

/** The reusable 'Saiba mais' button and its help dialog (spec 1 "Shell elements"). */
/** `topic`: one of HELP_TOPICS, or a screen's own (its texts in a catalogue only that screen loads). */
export function SaibaMais({ topic }: { topic: HelpTopicId | HelpTopic }) {
  const [opened, { open, close }] = useDisclosure(false);
  return (
    <>
      {/* Dark text on white: the light green variant read at about 3:1 (issue 33 §29). */}
      <Button
        variant="default"
        leftSection={<IconHelpCircle size={18} aria-hidden />}
        onClick={open}
        onPointerEnter={preload}
        onFocus={preload}
      >
        {labels.common.learnMore}
      </Button>
      <HelpTopicDialog opened={opened} onClose={close} topic={topic} />
    </>
  );
}
