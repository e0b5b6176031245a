import { Accordion } from '@mantine/core';
import { HelpContent } from '@/app/ui/HelpContent';
import { HELP_TOPICS } from '@/app/ui/help-topics';
import { PageHeader } from '@/app/ui/PageHeader';
import { labels } from '@/shared/messages';

/** /ajuda: an accordion of the help topics (spec 3 §2.17). */
export function HelpPage() {
  return (
    <>
      <PageHeader title={labels.common.help} />
      <Accordion variant="separated" maw={800}>
        {HELP_TOPICS.map((topic) => (
          <Accordion.Item key={topic.id} value={topic.id}>
            <Accordion.Control>{topic.title}</Accordion.Control>
            <Accordion.Panel>
              <HelpContent topic={topic.id} />
            </Accordion.Panel>
          </Accordion.Item>
        ))}
      </Accordion>
    </>
  );
}
