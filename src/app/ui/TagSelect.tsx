import { MultiSelect, type MultiSelectProps, Pill } from '@mantine/core';
import { useState } from 'react';
import { messages } from '@/shared/messages';
import { TAGS_SHOWN } from './TagBadges';
import { useTagOptions } from './use-tag-options';

interface Props extends Omit<MultiSelectProps, 'data' | 'value' | 'onChange'> {
  label: string;
  value: string[];
  onChange(value: string[]): void;
}

/**
 * A contact's tags (or a filter by tags): the account's tags not filed, searched by name. An id no longer
 * among them (a tag deleted meanwhile) is not shown. At rest it shows 3 chips then '+N' (spec 2 §9); while
 * the field has the focus, every chip shows, each with its remove button.
 */
export function TagSelect({ value, onChange, onFocus, onBlur, ...props }: Props) {
  const options = useTagOptions();
  const [focused, setFocused] = useState(false);
  const known = value.filter((v) => options.some((o) => o.value === v));
  const more = known.length - TAGS_SHOWN;
  return (
    <MultiSelect
      placeholder={known.length ? undefined : messages.chooseTags}
      data={options}
      value={known}
      onChange={onChange}
      searchable
      clearable
      hidePickedOptions
      onFocus={(e) => {
        setFocused(true);
        onFocus?.(e);
      }}
      onBlur={(e) => {
        setFocused(false);
        onBlur?.(e);
      }}
      renderPill={
        focused || more <= 0
          ? undefined
          : ({ value: tag, option, onRemove }) => {
              const at = tag === undefined ? -1 : known.indexOf(tag);
              if (at < TAGS_SHOWN)
                return (
                  <Pill withRemoveButton onRemove={onRemove}>
                    {option?.label ?? tag}
                  </Pill>
                );
              if (at === TAGS_SHOWN) return <Pill title={messages.listMoreTags(more)}>+{more}</Pill>;
              return null;
            }
      }
      {...props}
    />
  );
}
