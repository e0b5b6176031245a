import { Paper, Stack, TextInput, Title } from '@mantine/core';
import type { ReactNode } from 'react';

interface AuthFormProps {
  /** The id of its title, which names the form. */
  titleId: string;
  title: string;
  onSubmit(e: React.FormEvent): void;
  children: ReactNode;
}

/** A form of the sign-in screens: a card whose title is the page's one h1. */
export function AuthForm({ titleId, title, onSubmit, children }: AuthFormProps) {
  return (
    <Paper withBorder shadow="sm" p="lg" radius="md">
      <form onSubmit={onSubmit} noValidate aria-labelledby={titleId}>
        <Stack>
          <Title order={1} fz="h2" id={titleId}>
            {title}
          </Title>
          {children}
        </Stack>
      </form>
    </Paper>
  );
}

/** The e-mail one signs in with (the password manager's username). */
export function EmailField({
  label = 'E-mail',
  value,
  onChange,
}: {
  label?: string;
  value: string;
  onChange(value: string): void;
}) {
  return (
    <TextInput
      label={label}
      type="email"
      autoComplete="username"
      inputMode="email"
      value={value}
      onChange={(e) => onChange(e.currentTarget.value)}
    />
  );
}
