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
    ai_chatbot: labels.chips.aiChatbot,
    flow_chatbot: labels.chips.flowChatbot,
    human: labels.chips.humanService,
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
      aria-label={labels.common.templatePreview}
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
        <Input.Label>{O.buttons}</Input.Label>
        <Input.Description>{O.buttonsHelp}</Input.Description>
      </div>
      {payloads.map((b, at) => (
        <Select
          key={b.button}
          label={O.ifContactClick(b.button)}
          placeholder={O.noFlowNoButton}
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
      <Input.Wrapper label={O.conversationRule} error={errorOf('conversation_creation_rule')}>
        <SegmentedControl
          fullWidth
          // Its two long choices do not fit side by side on a phone.
          orientation={isMobile ? 'vertical' : 'horizontal'}
          aria-label={O.conversationRule}
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
            { value: 'all', label: O.ruleAll },
            { value: 'on_response', label: O.ruleAnswer },
          ]}
        />
      </Input.Wrapper>
      {draft.conversation_creation_rule === 'all' && (
        <>
          <Select
            label={O.conversationType}
            placeholder={labels.chips.select}
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
              placeholder={labels.chips.selectChatbot}
              data={chatbotOptions(chatbots.data)}
              value={draft.chatbot}
              onChange={(v) => onChange({ chatbot: v }, ['chatbot'])}
              nothingFoundMessage={labels.chips.noChatbotRegistered}
              error={errorOf('chatbot')}
              comboboxProps={{ withinPortal: true }}
            />
          )}
          {(draft.redirect === 'flow_chatbot' || !draft.redirect) && (
            <Select
              label={labels.common.flow}
              placeholder={labels.chips.selectFlow}
              data={flowOptions(flows.data)}
              value={draft.flow}
              onChange={(v) => onChange({ flow: v }, ['flow'])}
              nothingFoundMessage={labels.chips.noFlowRegistered}
              error={errorOf('flow')}
              comboboxProps={{ withinPortal: true }}
            />
          )}
          <Select
            label={O.department}
            placeholder={labels.chips.selectDepartment}
            data={(departments.data ?? []).map((d) => ({ value: d._id, label: d.name }))}
            value={draft.department}
            onChange={(v) => onChange({ department: v }, ['department'])}
            nothingFoundMessage={labels.chips.noDepartmentRegistered}
            error={errorOf('department')}
            comboboxProps={{ withinPortal: true }}
          />
        </>
      )}
    </>
  );
}
