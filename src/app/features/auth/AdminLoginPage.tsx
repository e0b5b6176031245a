import { Button, TextInput } from '@mantine/core';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { errorMessage } from '@/app/lib/api';
import { FormError, PasswordField } from '@/app/ui/FormParts';
import { labels, messages } from '@/shared/messages';
import { AuthForm, EmailField } from './AuthForm';
import { useSignIn } from './sign-in';

/** /admin-login: a platform admin opens a customer's account with their own credentials, then goes to /. */
export function AdminLoginPage() {
  const navigate = useNavigate();
  const signIn = useSignIn();
  const [customerEmail, setCustomerEmail] = useState('');
  const [adminEmail, setAdminEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);

  function submit(e: React.FormEvent) {
    e.preventDefault();
    setError(null);
    if (!customerEmail.trim() || !adminEmail.trim() || !password) return setError(messages.fillAllFields);
    signIn.mutate(
      { email: adminEmail.trim(), password, admin_login: true, customer_email: customerEmail.trim() },
      {
        onSuccess: () => void navigate({ to: '/', replace: true }),
        onError: (err) => setError(errorMessage(err)),
      },
    );
  }

  return (
    <AuthForm titleId="admin-login-title" title={labels.auth.adminLogin} onSubmit={submit}>
      <TextInput
        label={labels.auth.customerEmail}
        type="email"
        inputMode="email"
        value={customerEmail}
        onChange={(e) => setCustomerEmail(e.currentTarget.value)}
      />
      <EmailField label={labels.auth.adminEmail} value={adminEmail} onChange={setAdminEmail} />
      <PasswordField
        label={labels.common.password}
        autoComplete="current-password"
        value={password}
        onChange={setPassword}
      />
      <FormError message={error} />
      <Button type="submit" loading={signIn.isPending} fullWidth>
        {labels.auth.signIn}
      </Button>
    </AuthForm>
  );
}
