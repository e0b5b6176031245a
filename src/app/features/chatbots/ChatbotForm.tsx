// The chatbot's fields (spec 3 §3 Chatbot, §5, §9), in four groups: persona, knowledge, behaviour, transfer.
// Each field shows its own message of the shared rule (once Salvar was pressed) or the server's refusal.
import {
  Alert,
  Chip,
  Group,
  Input,
  NumberInput,
  Paper,
  Radio,
  Select,
  Slider,
  Stack,
  Switch,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { type ReactNode, type Ref, useMemo, useState } from 'react';
import { flowOptions, useFlows } from '@/app/lib/lists';
import { FormError } from '@/app/ui/FormParts';
import {
  type ChatbotDraft,
  type ChatbotInstructions,
  type ChatbotRedirect,
  PERSONA_GENDERS,
  PERSONALITY_TYPES,
  type PersonalityType,
} from '@/shared/contract/chatbots';
import { labels, messages } from '@/shared/messages';
import { chatbotLabels } from '@/shared/messages-editors';
import { type ChatbotField, contextWarning } from '@/shared/rules/chatbot';
import { characterCount, problemsByField, togglePersonality } from './chatbot-editor';

const L = chatbotLabels;
/** 0.3 as Brazilians write it: '0,3'. */
const decimal = (v: number) =>
  v.toLocaleString('pt-BR', { minimumFractionDigits: 1, maximumFractionDigits: 1 });

export interface FormProblem {
  field: ChatbotField | 'form';
  message: string;
}

interface Props {
  formRef: Ref<HTMLFormElement>;
  draft: ChatbotDraft;
  onChange(draft: ChatbotDraft): void;
  /** Salvar was pressed: every field shows its problem, as it changes. */
  checking: boolean;
  /** The server's refusal, on its field (or under the form). */
  refusal: FormProblem | null;
  onSubmit(e: React.FormEvent): void;
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Paper withBorder p={{ base: 'sm', sm: 'md' }} component="section">
      <Title order={2} fz="h4" mb="sm">
        {title}
      </Title>
      <Stack gap="md">{children}</Stack>
    </Paper>
  );
}

export function ChatbotForm({ formRef, draft, onChange, checking, refusal, onSubmit }: Props) {
  const flows = useFlows();
  const [personalityWarning, setPersonalityWarning] = useState<string | null>(null);
  const problems = useMemo(() => (checking ? problemsByField(draft) : {}), [checking, draft]);
  const i = draft.instructionsObject;
  const errorOf = (field: ChatbotField) =>
    (refusal?.field === field ? refusal.message : null) ??
    problems[field] ??
    (field === 'personality_types' ? personalityWarning : null);
  const set = (patch: Partial<ChatbotDraft>) => onChange({ ...draft, ...patch });
  const setI = (patch: Partial<ChatbotInstructions>) =>
    onChange({ ...draft, instructionsObject: { ...i, ...patch } });
  const warning = contextWarning(i.context);
  const showTransferMessage = draft.redirect === 'human' && draft.chatbot_auto_transfer;

  return (
    <form ref={formRef} onSubmit={onSubmit} noValidate>
      <Stack gap="md">
        <Section title={L.persona}>
          <TextInput
            label={L.identifier}
            value={draft.name}
            onChange={(e) => set({ name: e.currentTarget.value })}
            error={errorOf('name')}
            maxLength={200}
            withAsterisk
          />
          <TextInput
            label={L.personaName}
            value={i.persona_name}
            onChange={(e) => setI({ persona_name: e.currentTarget.value })}
            error={errorOf('persona_name')}
            maxLength={100}
            withAsterisk
          />
          <Radio.Group
            label={L.gender}
            value={i.persona_gender}
            onChange={(v) => setI({ persona_gender: v as ChatbotInstructions['persona_gender'] })}
            error={errorOf('persona_gender')}
            withAsterisk
          >
            <Group mt={6}>
              {PERSONA_GENDERS.map((g) => (
                <Radio key={g} value={g} label={L.generos[g]} />
              ))}
            </Group>
          </Radio.Group>
          <Textarea
            label={L.mission}
            value={i.persona_mission}
            onChange={(e) => setI({ persona_mission: e.currentTarget.value })}
            error={errorOf('persona_mission')}
            autosize
            minRows={2}
            maxRows={6}
            maxLength={2000}
            withAsterisk
          />
          <Input.Wrapper
            label={L.personality}
            error={errorOf('personality_types')}
            withAsterisk
            // The chips are checkboxes of their own: the group is named by its label.
            labelElement="div"
            id="chatbot-personality"
          >
            <Group
              gap={6}
              mt={6}
              role="group"
              aria-labelledby="chatbot-personality-label"
              data-invalid={errorOf('personality_types') ? 'true' : undefined}
            >
              {PERSONALITY_TYPES.map((p) => (
                <Chip
                  key={p}
                  size="sm"
                  checked={i.personality_types.includes(p)}
                  onChange={() => {
                    // A fourth is refused with the spec's warning.
                    const next = togglePersonality<PersonalityType>(i.personality_types, p);
                    setPersonalityWarning(next.warning);
                    if (!next.warning) setI({ personality_types: next.selected });
                  }}
                >
                  {p}
                </Chip>
              ))}
            </Group>
          </Input.Wrapper>
        </Section>

        <Section title={L.knowledge}>
          <Textarea
            label={L.context}
            description={L.contextDescription}
            value={i.context}
            onChange={(e) => setI({ context: e.currentTarget.value })}
            error={errorOf('context')}
            autosize
            minRows={6}
            maxRows={18}
            withAsterisk
          />
          <Group justify="space-between" gap="xs" mt={-8}>
            <Text
              fz="xs"
              c={warning ? (warning.level === 'error' ? 'red' : 'yellow.8') : 'dimmed'}
              aria-live="polite"
            >
              {characterCount(i.context.length)}
            </Text>
          </Group>
          {warning && (
            <Alert
              color={warning.level === 'error' ? 'red' : 'yellow'}
              icon={<IconAlertTriangle size={18} aria-hidden />}
              role="status"
            >
              {warning.message}
            </Alert>
          )}
          <Textarea
            label={L.defaultAnswer}
            value={i.fallback}
            onChange={(e) => setI({ fallback: e.currentTarget.value })}
            error={errorOf('fallback')}
            autosize
            minRows={1}
            maxRows={4}
            maxLength={1000}
            withAsterisk
          />
        </Section>

        <Section title={L.behaviour}>
          <Input.Wrapper label={`${L.temperature}: ${decimal(draft.temperature)}`} labelElement="div">
            <Slider
              mt="xs"
              mb="lg"
              min={0}
              max={1}
              step={0.1}
              value={draft.temperature}
              onChange={(v) => set({ temperature: Math.round(v * 10) / 10 })}
              label={decimal}
              thumbLabel={L.temperature}
              marks={[
                { value: 0, label: '0' },
                { value: 0.5, label: '0,5' },
                { value: 1, label: '1' },
              ]}
            />
          </Input.Wrapper>
          <NumberInput
            label={L.waitTime}
            value={draft.response_delay}
            onChange={(v) =>
              set({ response_delay: typeof v === 'number' ? Math.max(0, Math.min(60, v)) : 0 })
            }
            min={0}
            max={60}
            step={1}
            allowDecimal={false}
            allowNegative={false}
            clampBehavior="strict"
            w={{ base: '100%', sm: 420 }}
          />
          <Textarea
            label={L.finishMessage}
            value={draft.finish_conversation_message}
            onChange={(e) => set({ finish_conversation_message: e.currentTarget.value })}
            autosize
            minRows={1}
            maxRows={4}
            maxLength={1000}
          />
        </Section>

        <Section title={messages.transfer}>
          <Radio.Group
            label={L.afterTransfer}
            value={draft.redirect}
            onChange={(v) => set({ redirect: v as ChatbotRedirect })}
          >
            <Group mt={6}>
              {(['human', 'flow_chatbot'] as const).map((r) => (
                <Radio key={r} value={r} label={L.redirects[r]} />
              ))}
            </Group>
          </Radio.Group>
          {draft.redirect === 'flow_chatbot' && (
            <Select
              label={labels.common.flow}
              placeholder={labels.chips.selectFlow}
              data={flowOptions(flows.data)}
              value={draft.flow}
              onChange={(flow) => set({ flow })}
              nothingFoundMessage={labels.chips.noFlowRegistered}
              error={errorOf('flow')}
              searchable
              withAsterisk
            />
          )}
          <Switch
            label={L.automaticTransfer}
            checked={draft.chatbot_auto_transfer}
            onChange={(e) => set({ chatbot_auto_transfer: e.currentTarget.checked })}
          />
          <Switch
            label={L.transferIfMedia}
            checked={draft.chatbot_auto_transfer_if_is_media}
            onChange={(e) => set({ chatbot_auto_transfer_if_is_media: e.currentTarget.checked })}
          />
          {showTransferMessage && (
            <Textarea
              label={L.transferMessage}
              value={draft.chatbot_auto_transfer_message}
              onChange={(e) => set({ chatbot_auto_transfer_message: e.currentTarget.value })}
              autosize
              minRows={1}
              maxRows={4}
              maxLength={1000}
            />
          )}
        </Section>
        <FormError message={refusal?.field === 'form' ? refusal.message : null} />
        {/* Enter in a one-line field saves, as in the other forms. */}
        <button type="submit" hidden aria-hidden tabIndex={-1} />
      </Stack>
    </form>
  );
}
