// Importar fluxo (spec 3 §4, §8): a .json exported from a flow. The file is checked here first (chosen, size,
// JSON, shape) so a wrong one is named at once; the server checks it again and strips what belongs to
// another account.
import { Button, FileInput, Group, Stack, Text } from '@mantine/core';
import { IconUpload } from '@tabler/icons-react';
import { useState } from 'react';
import { Dialog } from '@/app/ui/Dialog';
import { FormError } from '@/app/ui/FormParts';
import { labels, messages } from '@/shared/messages';
import { importFailure, readImportFile, useImportFlow } from './flow-actions';

export function ImportDialog({ opened, onClose }: { opened: boolean; onClose(): void }) {
  return (
    <Dialog opened={opened} onClose={onClose} title={labels.flows.importFlow}>
      {opened && <ImportForm onDone={onClose} />}
    </Dialog>
  );
}

function ImportForm({ onDone }: { onDone(): void }) {
  const [file, setFile] = useState<File | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [reading, setReading] = useState(false);
  const importFlow = useImportFlow();

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    setError(null);
    setReading(true);
    try {
      const read = await readImportFile(file);
      if (!read.ok) return setError(read.message);
      await importFlow.mutateAsync(read.content);
      onDone();
    } catch (err) {
      setError(importFailure(err));
    } finally {
      setReading(false);
    }
  }

  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <Text fz="sm">{labels.flows.chooseExportedFile}</Text>
        <FileInput
          label={labels.flows.flowFile}
          placeholder={messages.mediaFilePlaceholder}
          accept=".json,application/json"
          value={file}
          onChange={(f) => {
            setFile(f);
            setError(null);
          }}
          leftSection={<IconUpload size={16} aria-hidden />}
          clearable
        />
        <FormError message={error} />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onDone}>
            {labels.common.cancel}
          </Button>
          <Button type="submit" loading={reading}>
            {messages.contactsImport}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
