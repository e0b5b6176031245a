import { Button, Group, Stack, TextInput } from '@mantine/core';
import { IconCurrentLocation } from '@tabler/icons-react';
import { useState } from 'react';
import { Dialog } from '@/app/ui/Dialog';
import { FormError } from '@/app/ui/FormParts';
import { labels, messages } from '@/shared/messages';

export interface Place {
  latitude: number;
  longitude: number;
  name?: string;
}

/** A coordinate typed with a comma or a point as the decimal separator; null when it is not a number. */
function coordinate(value: string, max: number): number | null {
  const text = value.trim().replace(',', '.');
  if (!/^-?\d+(\.\d+)?$/.test(text)) return null;
  const n = Number(text);
  return Math.abs(n) <= max ? n : null;
}

interface Props {
  opened: boolean;
  onClose(): void;
  onSend(place: Place): void;
}

export function LocationDialog({ opened, onClose, onSend }: Props) {
  const [latitude, setLatitude] = useState('');
  const [longitude, setLongitude] = useState('');
  const [name, setName] = useState('');
  const [errors, setErrors] = useState<{ latitude?: string; longitude?: string }>({});
  const [locating, setLocating] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const canLocate = typeof navigator !== 'undefined' && 'geolocation' in navigator;

  function close() {
    setErrors({});
    setFailure(null);
    onClose();
  }

  function locate() {
    setFailure(null);
    setLocating(true);
    navigator.geolocation.getCurrentPosition(
      (position) => {
        setLatitude(position.coords.latitude.toFixed(6));
        setLongitude(position.coords.longitude.toFixed(6));
        setErrors({});
        setLocating(false);
      },
      () => {
        setFailure(messages.simulatorGeolocationFailed);
        setLocating(false);
      },
      { timeout: 10_000 },
    );
  }

  function submit(e: React.FormEvent) {
    e.preventDefault();
    const lat = coordinate(latitude, 90);
    const lon = coordinate(longitude, 180);
    const found = {
      ...(lat === null && { latitude: messages.simulatorLatitudeInvalid }),
      ...(lon === null && { longitude: messages.simulatorLongitudeInvalid }),
    };
    setErrors(found);
    if (lat === null || lon === null) return;
    onSend({ latitude: lat, longitude: lon, ...(name.trim() && { name: name.trim() }) });
    setLatitude('');
    setLongitude('');
    setName('');
    close();
  }

  return (
    <Dialog opened={opened} onClose={close} title={labels.simulator.sendLocation}>
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          {canLocate && (
            <Button
              variant="light"
              leftSection={<IconCurrentLocation size={18} aria-hidden />}
              onClick={locate}
              loading={locating}
            >
              {labels.simulator.useMyLocation}
            </Button>
          )}
          <Group grow align="flex-start">
            <TextInput
              label={labels.simulator.latitude}
              inputMode="decimal"
              placeholder="-23,550520"
              value={latitude}
              onChange={(e) => setLatitude(e.currentTarget.value)}
              error={errors.latitude}
            />
            <TextInput
              label={labels.simulator.longitude}
              inputMode="decimal"
              placeholder="-46,633308"
              value={longitude}
              onChange={(e) => setLongitude(e.currentTarget.value)}
              error={errors.longitude}
            />
          </Group>
          <TextInput
            label={labels.simulator.placeName}
            placeholder={labels.common.optional}
            maxLength={200}
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
          />
          <FormError message={failure} />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={close}>
              {labels.common.cancel}
            </Button>
            <Button type="submit">{labels.simulator.sendLocation}</Button>
          </Group>
        </Stack>
      </form>
    </Dialog>
  );
}
