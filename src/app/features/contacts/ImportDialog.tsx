// Importar contatos (spec 2 §2.1, §5 Import): the sheet is analysed on the server first; Importar appears
// only when it found valid contacts, and sends them in batches so a large sheet shows its progress.
import { Alert, Anchor, Badge, Button, FileInput, Group, List, Progress, Stack, Text } from '@mantine/core';
import { IconFileSpreadsheet, IconUpload } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, errorMessage, upload } from '@/app/lib/api';
import { notifySuccess } from '@/app/lib/notify';
import { Dialog } from '@/app/ui/Dialog';
import { FormError } from '@/app/ui/FormParts';
import { CONTACT_IMPORT_BATCH } from '@/shared/constants';
import type { AudienceAnalysis, ImportPerson } from '@/shared/contract/contacts';
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
  const [file, setFile] = useState<File | null>(null);
  const [analysis, setAnalysis] = useState<AudienceAnalysis | null>(null);
  const [analysing, setAnalysing] = useState(false);
  const [progress, setProgress] = useState<{ done: number; total: number } | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function analyse(chosen: File | null) {
    setFile(chosen);
    setAnalysis(null);
    setError(null);
    if (!chosen) return;
    setAnalysing(true);
    try {
      setAnalysis(await upload('send-audience-list', chosen, chosen.name));
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setAnalysing(false);
    }
  }

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

  const variables = analysis?.header.filter((h) => h !== 'telefone') ?? [];
  const busy = analysing || progress !== null;

  return (
    <Stack>
      <Text fz="sm">{messages.importInstructions}</Text>
      <Anchor href={TEMPLATE_URL} download="modelo-contatos.xlsx" fz="sm">
        <Group gap={6} component="span">
          <IconFileSpreadsheet size={18} aria-hidden />
          {messages.importTemplate}
        </Group>
      </Anchor>
      <FileInput
        label={messages.importFile}
        placeholder={labels.contacts.escolhaUmArquivo}
        accept=".xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
        value={file}
        onChange={(f) => void analyse(f)}
        leftSection={<IconUpload size={16} aria-hidden />}
        disabled={busy}
        clearable
      />
      {analysing && (
        <Stack gap={4}>
          <Text fz="sm">{messages.importAnalysing}</Text>
          <Progress value={100} animated striped aria-label={messages.importAnalysing} />
        </Stack>
      )}
      {analysis && (
        <Alert color={analysis.valid.length ? 'green' : 'yellow'} role="status">
          <Stack gap="xs">
            <Text fz="sm">{analysis.message}</Text>
            {variables.length > 0 && (
              <Group gap={6}>
                <Text fz="sm">{messages.importVariables}:</Text>
                {variables.map((v) => (
                  <Badge key={v} variant="light" tt="none">
                    {`{${v}}`}
                  </Badge>
                ))}
              </Group>
            )}
            {analysis.invalid.length > 0 && (
              <>
                <Text fz="sm" fw={600}>
                  {messages.importInvalidLines}
                </Text>
                <List
                  size="sm"
                  aria-label={messages.importInvalidLines}
                  mah={160}
                  style={{ overflow: 'auto' }}
                >
                  {analysis.invalid.map((i) => (
                    <List.Item key={i.line}>{`Linha ${i.line}: ${i.reason}`}</List.Item>
                  ))}
                </List>
              </>
            )}
          </Stack>
        </Alert>
      )}
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
          {labels.common.cancelar}
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
