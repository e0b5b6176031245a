import { Avatar, Button, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconBrandWhatsapp, IconUser } from '@tabler/icons-react';
import { useState } from 'react';
import { DEFAULT_COUNTRY_CODE } from '@/shared/constants';
import { labels, messages } from '@/shared/messages';
import { type CustomerIdentity, customerPhone } from './identity';
import classes from './simulator.module.css';

interface Props {
  chipName: string;
  /** The customer played so far: offered back with Cancelar. */
  previous: CustomerIdentity | null;
  onDone(identity: CustomerIdentity): void;
  onCancel(): void;
}

/** "Quem é você?": the customer this phone plays, before the chat opens. */
export function IdentityForm({ chipName, previous, onDone, onCancel }: Props) {
  const [country, setCountry] = useState(DEFAULT_COUNTRY_CODE);
  const [number, setNumber] = useState('');
  const [name, setName] = useState('');
  const [errors, setErrors] = useState<{ number?: string; name?: string }>({});

  function submit(e: React.FormEvent) {
    e.preventDefault();
    const phone = customerPhone(country, number);
    const found = {
      ...(!number.trim() ? { number: messages.requiredField } : !phone && { number: messages.invalidPhone }),
      ...(!name.trim() && { name: messages.requiredField }),
    };
    setErrors(found);
    if (!phone || !name.trim()) return;
    onDone({ country: country.replace(/\D/g, '') || DEFAULT_COUNTRY_CODE, number, name: name.trim(), phone });
  }

  return (
    <>
      <header className={classes.header}>
        <Avatar radius="xl" size={40} color="white" variant="filled" aria-hidden>
          <IconBrandWhatsapp size={24} color="#008069" />
        </Avatar>
        <div style={{ minWidth: 0 }}>
          <Text fw={600} fz="md" lh={1.2} truncate="end">
            {labels.simulator.whatsappSimulator}
          </Text>
          <Text fz="xs" lh={1.3} c="#d9fdd3" truncate="end">
            {labels.simulator.conversationWith} {chipName}
          </Text>
        </div>
      </header>
      <div className={classes.setup}>
        <form onSubmit={submit} noValidate aria-labelledby="simulator-identity-title">
          <Stack gap="md">
            <Stack gap={6} align="center" ta="center">
              <Avatar size={64} radius="xl" color="teal" aria-hidden>
                <IconUser size={34} />
              </Avatar>
              <Title order={1} fz="h3" id="simulator-identity-title">
                {labels.simulator.whoAreYou}
              </Title>
              <Text size="sm" c="dimmed">
                {messages.simulatorIdentityHint}
              </Text>
            </Stack>
            <Group gap="xs" align="flex-start" wrap="nowrap">
              <TextInput
                label={labels.simulator.country}
                w={84}
                leftSection="+"
                inputMode="numeric"
                maxLength={4}
                value={country}
                onChange={(e) => setCountry(e.currentTarget.value.replace(/\D/g, ''))}
              />
              <TextInput
                label={labels.common.areaCodeAndNumber}
                style={{ flex: 1 }}
                type="tel"
                inputMode="tel"
                autoComplete="tel-national"
                placeholder="11 98765-4321"
                value={number}
                onChange={(e) => setNumber(e.currentTarget.value)}
                error={errors.number}
              />
            </Group>
            <TextInput
              label={labels.common.name}
              autoComplete="name"
              placeholder={labels.simulator.exampleCustomer}
              maxLength={100}
              value={name}
              onChange={(e) => setName(e.currentTarget.value)}
              error={errors.name}
            />
            <Button type="submit" color="#00a884" size="md">
              {labels.simulator.openConversation}
            </Button>
            {previous && (
              <Button variant="subtle" color="gray" onClick={onCancel}>
                {labels.common.cancel}
              </Button>
            )}
          </Stack>
        </form>
      </div>
    </>
  );
}
