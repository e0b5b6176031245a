// The app's one date-and-time picker for a send in the future (a scheduled message, a campaign): pt-BR,
// dd/mm/aaaa hh:mm without seconds (spec 2 §2.4), today at the earliest, every control named for screen readers.
import { DateTimePicker } from '@mantine/dates';
import dayjs from 'dayjs';
import { messages } from '@/shared/messages';
import { PtBrDates } from './PtBrDates';
import { useIsMobile } from './use-is-mobile';

export function FutureDateTimePicker(props: {
  label: string;
  value: string | null;
  onChange(value: string | null): void;
  error?: string | null;
}) {
  // On a phone a popover under the field runs off the screen (its time row and confirm button cut at
  // 360×640): there the calendar opens as a centred dialog, whole.
  const mobile = useIsMobile();
  return (
    <PtBrDates>
      <DateTimePicker
        label={props.label}
        placeholder={messages.dateTimePlaceholder}
        valueFormat="DD/MM/YYYY HH:mm"
        dropdownType={mobile ? 'modal' : 'popover'}
        modalProps={{ centered: true }}
        value={props.value}
        onChange={props.onChange}
        minDate={dayjs().format('YYYY-MM-DD')}
        getDayAriaLabel={(date) => dayjs(date).format('DD/MM/YYYY')}
        ariaLabels={messages.dateAriaLabels}
        timePickerProps={{
          hoursInputLabel: messages.timeHours,
          minutesInputLabel: messages.timeMinutes,
        }}
        submitButtonProps={{ 'aria-label': messages.dateTimeConfirm }}
        error={props.error}
      />
    </PtBrDates>
  );
}
