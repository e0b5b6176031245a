// Importar contatos (spec 2 §2.1, §5 Import): the sheet is analysed on the server first; Importar appears
// only when it found valid contacts, and sends them in batches so a large sheet shows its progress.
import { Anchor, Button, Group, Progress, Stack, Text } from '@mantine/core';
import { IconFileSpreadsheet } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, errorMessage } from '@/app/lib/api';
import { notifySuccess } from '@/app/lib/notify';
import { Dialog } from '@/app/ui/Dialog';
import { FormError } from '@/app/ui/FormParts';
import { SheetInput, useSheetAnalysis } from '@/app/widgets/sheet/SheetAnalysis';
import { CONTACT_IMPORT_BATCH } from '@/shared/constants';
import type { ImportPerson } from '@/shared/contract/contacts';
import { labels, messages } from '@/shared/messages';
import { refreshContacts } from './contacts-data';

const TEMPLATE_URL = '/modelo-contatos.xlsx';
/** Under the server's JSON body limit (2 MiB), whatever the sheet's columns hold. */
const BATCH_BYTES = 1_500_000;

/** Batches of at most CONTACT_IMPORT_BATCH people and about BATCH_BYTES of JSON. */
function batches(people: ImportPerson[]): ImportPerson[][] {
  const out: ImportPerson[][] = [];
  let current: ImportPerson[] = [];
  let bytes = 0;
  for (const person of people) {
    const size = JSON.stringify(person).length + 1;
    if (current.length && (current.length >= CONTACT_IMPORT_BATCH || bytes + size > BATCH_BYTES)) {
      out.push(current);
      current = [];
      bytes = 0;
    }
    current.push(person);
    bytes += size;
  }
  if (current.length) out.push(current);
  return out;
}

export function ImportDialog({ opened, onClose }: { opened: boolean; onClose(): void }) {
  return (
    <Dialog opened={opened} onClose={onClose} title={messages.importTitle} size="lg">
      {opened && <ImportForm onDone={onClose} />}
    </Dialog>
  );
}

function ImportForm({ onDone }: { onDone(): void }) {
  const client = useQueryClient();
  const sheet = useSheetAnalysis();
  const { analysis } = sheet;
  const [progress, setProgress] = useState<{ done: number; total: number } | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function importAll() {
    if (!analysis?.valid.length) return;
    setError(null);
    const total = analysis.valid.length;
    setProgress({ done: 0, total });
    try {
      let done = 0;
      for (const people of batches(analysis.valid)) {
        await api('import-contacts', { people, props: analysis.header });
        done += people.length;
        setProgress({ done, total });
      }
      notifySuccess(messages.contactsImported);
      void refreshContacts(client);
      onDone();
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setProgress(null);
    }
  }

  return (
    <Stack>
      <Text fz="sm">{messages.importInstructions}</Text>
      <Anchor href={TEMPLATE_URL} download="modelo-contatos.xlsx" fz="sm">
        <Group gap={6} component="span">
          <IconFileSpreadsheet size={18} aria-hidden />
          {messages.importTemplate}
        </Group>
      </Anchor>
      <SheetInput sheet={sheet} disabled={progress !== null} />
      {progress && (
        <Stack gap={4}>
          <Text fz="sm">{messages.importProgress(progress.done, progress.total)}</Text>
          <Progress
            value={(progress.done / progress.total) * 100}
            aria-label={messages.importProgress(progress.done, progress.total)}
          />
        </Stack>
      )}
      <FormError message={error} />
      <Group justify="flex-end">
        <Button variant="default" onClick={onDone} disabled={progress !== null}>
          {labels.common.cancel}
        </Button>
        {analysis && analysis.valid.length > 0 && (
          <Button onClick={() => void importAll()} loading={progress !== null}>
            {messages.contactsImport}
          </Button>
        )}
      </Group>
    </Stack>
  );
}
