import { MultiSelect, type MultiSelectProps } from '@mantine/core';
import { messages } from '@/shared/messages';
import { useTagOptions } from './use-tag-options';

interface Props extends Omit<MultiSelectProps, 'data' | 'value' | 'onChange'> {
  label: string;
  value: string[];
  onChange(value: string[]): void;
}

/**
 * A contact's tags (or a filter by tags): the account's tags not filed, searched by name. An id no longer
 * among them (a tag deleted meanwhile) is not shown.
 */
export function TagSelect({ value, onChange, ...props }: Props) {
  const options = useTagOptions();
  return (
    <MultiSelect
      placeholder={value.length ? undefined : messages.paneTagsPlaceholder}
      data={options}
      value={value.filter((v) => options.some((o) => o.value === v))}
      onChange={onChange}
      searchable
      clearable
      hidePickedOptions
      {...props}
    />
  );
}
