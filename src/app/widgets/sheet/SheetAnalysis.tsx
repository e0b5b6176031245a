// A spreadsheet of people (spec 2 §5 Import) chosen and analysed on the server (send-audience-list) before
// anything is saved: the contacts import and the audiences import show the same analysis.
import { Alert, Badge, FileInput, Group, List, Progress, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconUpload } from '@tabler/icons-react';
import { useRef, useState } from 'react';
import { errorMessage, upload } from '@/app/lib/api';
import type { AudienceAnalysis } from '@/shared/contract/contacts';
import { messages } from '@/shared/messages';

const XLSX_ACCEPT = '.xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** The chosen sheet and its analysis: a new choice starts a new analysis, the last one chosen wins. */
export function useSheetAnalysis() {
  const [file, setFile] = useState<File | null>(null);
  const [analysis, setAnalysis] = useState<AudienceAnalysis | null>(null);
  const [analysing, setAnalysing] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const latest = useRef<File | null>(null);

  async function choose(chosen: File | null) {
    latest.current = chosen;
    setFile(chosen);
    setAnalysis(null);
    setError(null);
    if (!chosen) return;
    setAnalysing(true);
    try {
      const answer = await upload('send-audience-list', chosen, chosen.name);
      if (latest.current === chosen) setAnalysis(answer);
    } catch (err) {
      if (latest.current === chosen) setError(errorMessage(err));
    } finally {
      if (latest.current === chosen) setAnalysing(false);
    }
  }

  return { file, analysis, analysing, error, choose };
}

export type SheetAnalysisState = ReturnType<typeof useSheetAnalysis>;

/** The file field, the analysing bar and the analysis: valid count, variables, lines with a problem. */
export function SheetInput({
  sheet,
  label = messages.importFile,
  disabled = false,
}: {
  sheet: SheetAnalysisState;
  label?: string;
  disabled?: boolean;
}) {
  return (
    <>
      <FileInput
        label={label}
        placeholder={messages.mediaFilePlaceholder}
        accept={XLSX_ACCEPT}
        value={sheet.file}
        onChange={(f) => void sheet.choose(f)}
        leftSection={<IconUpload size={16} aria-hidden />}
        disabled={disabled || sheet.analysing}
        error={sheet.error}
        clearable
      />
      {sheet.analysing && (
        <Stack gap={4}>
          <Text fz="sm">{messages.importAnalysing}</Text>
          <Progress value={100} animated striped aria-label={messages.importAnalysing} />
        </Stack>
      )}
      {sheet.analysis && <SheetAnalysisSummary analysis={sheet.analysis} />}
    </>
  );
}

/** A sheet's columns as the message variables they become: {nome}, {cidade}. */
export function VariableBadges({ names }: { names: readonly string[] }) {
  return (
    <>
      {names.map((v) => (
        <Badge key={v} variant="light" tt="none">
          {`{${v}}`}
        </Badge>
      ))}
    </>
  );
}

export function SheetAnalysisSummary({ analysis }: { analysis: AudienceAnalysis }) {
  const variables = analysis.header.filter((h) => h !== 'telefone');
  return (
    <>
      <Alert color={analysis.valid.length ? 'green' : 'yellow'} role="status">
        <Stack gap="xs">
          <Text fz="sm">{analysis.message}</Text>
          {variables.length > 0 && (
            <Group gap={6}>
              <Text fz="sm">{messages.variables}:</Text>
              <VariableBadges names={variables} />
            </Group>
          )}
        </Stack>
      </Alert>
      {/* The lines left out are a warning of their own, not part of the (green) success. */}
      {analysis.invalid.length > 0 && (
        <Alert
          color="yellow"
          icon={<IconAlertTriangle aria-hidden />}
          title={messages.importInvalidLines}
          aria-label={messages.importInvalidLines}
        >
          <List size="sm" aria-label={messages.importInvalidLines} mah={160} style={{ overflow: 'auto' }}>
            {analysis.invalid.map((i) => (
              <List.Item key={i.line}>{messages.importInvalidLine(i.line, i.reason)}</List.Item>
            ))}
          </List>
        </Alert>
      )}
    </>
  );
}
