// The fields the regular and the official campaign dialogs share (spec 3 §3 Campaign): who it goes to (an
// imported audience, or the contacts with some tags minus those with others) and when (Imediato or a date).
import { Input, SegmentedControl, Select } from '@mantine/core';
import { FutureDateTimePicker } from '@/app/ui/FutureDateTimePicker';
import { TagSelect } from '@/app/ui/TagSelect';
import type { Audience } from '@/shared/contract/campaigns';
import { labels } from '@/shared/messages';
import { campaignLabels } from '@/shared/messages-campaigns';

export interface AudienceDraft {
  audience_type: 'audience' | 'tags';
  audience: string | null;
  audience_tags: string[];
  audience_tags_skip: string[];
}

type AudienceField = 'audience' | 'audience_tags';

const L = campaignLabels.campaigns;

/** The audiences that can be chosen (not deleted), and the one chosen. */
export function chosenAudience(list: readonly Audience[] | undefined, id: string | null) {
  const usable = (list ?? []).filter((a) => !a.filed);
  return { usable, chosen: usable.find((a) => a._id === id) ?? null };
}

export function AudienceFields<D extends AudienceDraft>(props: {
  draft: D;
  audiences: readonly Audience[] | undefined;
  set<K extends keyof AudienceDraft>(key: K, value: D[K], field?: AudienceField): void;
  clear(field: AudienceField): void;
  errorOf(field: AudienceField): string | null;
}) {
  const { draft, set, clear, errorOf } = props;
  const { usable, chosen } = chosenAudience(props.audiences, draft.audience);
  return (
    <>
      <Input.Wrapper label={L.recipients}>
        <SegmentedControl
          fullWidth
          aria-label={L.recipients}
          value={draft.audience_type}
          onChange={(v) => {
            set('audience_type', v as D['audience_type']);
            clear('audience');
            clear('audience_tags');
          }}
          data={[
            { value: 'audience', label: campaignLabels.campaigns.audience },
            { value: 'tags', label: labels.common.tags },
          ]}
        />
      </Input.Wrapper>
      {draft.audience_type === 'audience' ? (
        <Select
          label={L.audience}
          placeholder={L.chooseAudience}
          description={
            chosen
              ? L.people(chosen.people_count)
              : props.audiences && usable.length === 0
                ? L.noAudience
                : undefined
          }
          data={usable.map((a) => ({ value: a._id, label: a.name }))}
          value={draft.audience}
          onChange={(v) => set('audience', v as D['audience'], 'audience')}
          error={errorOf('audience')}
          searchable
          comboboxProps={{ withinPortal: true }}
        />
      ) : (
        <>
          <TagSelect
            label={L.recipientTagsField}
            value={draft.audience_tags}
            onChange={(v) => set('audience_tags', v as D['audience_tags'], 'audience_tags')}
            error={errorOf('audience_tags')}
            comboboxProps={{ withinPortal: true }}
          />
          <TagSelect
            label={L.tagsIgnored}
            value={draft.audience_tags_skip}
            onChange={(v) => set('audience_tags_skip', v as D['audience_tags_skip'])}
            comboboxProps={{ withinPortal: true }}
          />
        </>
      )}
    </>
  );
}

export interface ScheduleDraft {
  /** 'now': Imediato; 'at': on `when`. */
  schedule: 'now' | 'at';
  when: string | null;
}

export function ScheduleFields<D extends ScheduleDraft>(props: {
  draft: D;
  set<K extends keyof ScheduleDraft>(key: K, value: D[K], field?: 'scheduledTo'): void;
  clear(field: 'scheduledTo'): void;
  errorOf(field: 'scheduledTo'): string | null;
}) {
  const { draft, set, clear, errorOf } = props;
  return (
    <>
      <Input.Wrapper label={L.sending}>
        <SegmentedControl
          fullWidth
          aria-label={L.sending}
          value={draft.schedule}
          onChange={(v) => {
            set('schedule', v as D['schedule']);
            clear('scheduledTo');
          }}
          data={[
            { value: 'now', label: L.immediate },
            { value: 'at', label: L.scheduled },
          ]}
        />
      </Input.Wrapper>
      {draft.schedule === 'at' && (
        <FutureDateTimePicker
          label={L.sendingDateAndTime}
          value={draft.when}
          onChange={(v) => set('when', v as D['when'], 'scheduledTo')}
          error={errorOf('scheduledTo')}
        />
      )}
    </>
  );
}
