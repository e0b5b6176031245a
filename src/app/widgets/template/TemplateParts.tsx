// The pieces an official template's sender shows (the official campaign dialog, the webhook screen): the
// template's header and body read-only, a flow per quick-reply button ('Se o contato clicar em {button}'),
// and the conversation creation rule with its type, chatbot, flow and department (spec 3 §2.11, §2.13).
import { Input, Paper, SegmentedControl, Select, Stack, Text } from '@mantine/core';
import { chatbotOptions, flowOptions, useChatbots, useDepartments, useFlows } from '@/app/lib/lists';
import { useIsMobile } from '@/app/ui/use-is-mobile';
import { CHIP_REDIRECTS, type ChipRedirect } from '@/shared/constants';
import type { ConversationCreationRule, TemplatePayload } from '@/shared/contract/campaigns';
import { labels } from '@/shared/messages';
import { officialCampaignLabels } from '@/shared/messages-campaigns';
import { templatePreview } from './template-parts';

const O = officialCampaignLabels;

const REDIRECT_OPTIONS = CHIP_REDIRECTS.map((value) => ({
  value,
  label: {
    ai_chatbot: labels.chips.chatbotIa,
    flow_chatbot: labels.chips.chatbotDeFluxo,
    human: labels.chips.atendimentoHumano,
  }[value],
}));

/** The template's header, body and footer as the person reads them. */
export function TemplatePreview({ components }: { components: readonly Record<string, unknown>[] }) {
  const preview = templatePreview(components);
  if (!preview.header && !preview.body) return null;
  return (
    <Paper
      withBorder
      p="sm"
      radius="md"
      bg="var(--mantine-color-default-hover)"
      aria-label={labels.common.previaDoTemplate}
    >
      <Stack gap={4}>
        {preview.header && (
          <Text fw={700} fz="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
            {preview.header}
          </Text>
        )}
        <Text fz="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
          {preview.body}
        </Text>
        {preview.footer && (
          <Text fz="xs" c="dimmed">
            {preview.footer}
          </Text>
        )}
      </Stack>
    </Paper>
  );
}

/** One flow per quick-reply button: the flow a tap starts. */
export function ButtonFlows({
  payloads,
  onChange,
}: {
  payloads: readonly TemplatePayload[];
  onChange(payloads: TemplatePayload[]): void;
}) {
  const flows = useFlows();
  if (payloads.length === 0) return null;
  return (
    <Stack gap="xs">
      <div>
        <Input.Label>{O.botoes}</Input.Label>
        <Input.Description>{O.botoesAjuda}</Input.Description>
      </div>
      {payloads.map((b, at) => (
        <Select
          key={b.button}
          label={O.seOContatoClicar(b.button)}
          placeholder={O.nenhumFluxoNoBotao}
          data={flowOptions(flows.data)}
          value={b.payload ?? null}
          onChange={(v) => onChange(payloads.map((x, i) => (i === at ? { ...x, payload: v } : x)))}
          clearable
          comboboxProps={{ withinPortal: true }}
        />
      ))}
    </Stack>
  );
}

export interface ConversationRuleDraft {
  conversation_creation_rule: ConversationCreationRule | null;
  redirect: ChipRedirect | null;
  chatbot: string | null;
  flow: string | null;
  department: string | null;
}
type RuleField = keyof ConversationRuleDraft;

/**
 * When conversations are created (all sends, or only when the contact replies); for 'all', who serves them.
 * `onChange` gets the change and the fields whose messages it makes stale.
 */
export function ConversationRuleFields({
  draft,
  onChange,
  errorOf,
}: {
  draft: ConversationRuleDraft;
  onChange(patch: Partial<ConversationRuleDraft>, stale: RuleField[]): void;
  errorOf(field: RuleField): string | null;
}) {
  const isMobile = useIsMobile();
  const flows = useFlows();
  const chatbots = useChatbots();
  const departments = useDepartments();
  return (
    <>
      <Input.Wrapper label={O.regraDeConversa} error={errorOf('conversation_creation_rule')}>
        <SegmentedControl
          fullWidth
          // Its two long choices do not fit side by side on a phone.
          orientation={isMobile ? 'vertical' : 'horizontal'}
          aria-label={O.regraDeConversa}
          value={draft.conversation_creation_rule ?? ''}
          onChange={(v) =>
            onChange({ conversation_creation_rule: v as ConversationCreationRule }, [
              'conversation_creation_rule',
              'redirect',
              'chatbot',
              'flow',
              'department',
            ])
          }
          data={[
            { value: 'all', label: O.regraTodas },
            { value: 'on_response', label: O.regraResposta },
          ]}
        />
      </Input.Wrapper>
      {draft.conversation_creation_rule === 'all' && (
        <>
          <Select
            label={O.tipoDeConversa}
            placeholder={labels.chips.selecione}
            data={REDIRECT_OPTIONS}
            value={draft.redirect}
            onChange={(v) =>
              onChange({ redirect: v as ChipRedirect | null }, ['redirect', 'chatbot', 'flow'])
            }
            error={errorOf('redirect')}
            comboboxProps={{ withinPortal: true }}
          />
          {(draft.redirect === 'ai_chatbot' || !draft.redirect) && (
            <Select
              label={labels.common.chatbot}
              placeholder={labels.chips.selecioneOChatbot}
              data={chatbotOptions(chatbots.data)}
              value={draft.chatbot}
              onChange={(v) => onChange({ chatbot: v }, ['chatbot'])}
              nothingFoundMessage={labels.chips.nenhumChatbotCadastrado}
              error={errorOf('chatbot')}
              comboboxProps={{ withinPortal: true }}
            />
          )}
          {(draft.redirect === 'flow_chatbot' || !draft.redirect) && (
            <Select
              label={labels.common.fluxo}
              placeholder={labels.chips.selecioneOFluxo}
              data={flowOptions(flows.data)}
              value={draft.flow}
              onChange={(v) => onChange({ flow: v }, ['flow'])}
              nothingFoundMessage={labels.chips.nenhumFluxoCadastrado}
              error={errorOf('flow')}
              comboboxProps={{ withinPortal: true }}
            />
          )}
          <Select
            label={O.departamento}
            placeholder={labels.chips.selecioneODepartamento}
            data={(departments.data ?? []).map((d) => ({ value: d._id, label: d.name }))}
            value={draft.department}
            onChange={(v) => onChange({ department: v }, ['department'])}
            nothingFoundMessage={labels.chips.nenhumDepartamentoCadastrado}
            error={errorOf('department')}
            comboboxProps={{ withinPortal: true }}
          />
        </>
      )}
    </>
  );
}
