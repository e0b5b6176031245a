import '@mantine/core/styles.css';
import { createTheme, MantineProvider } from '@mantine/core';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { ResetPasswordPage } from './features/auth/ResetPasswordPage';

const theme = createTheme({ primaryColor: 'green' });

// Until the app issue brings the router and the shell, only the password-reset page exists.
function App() {
  if (window.location.pathname === '/redefinir-senha') return <ResetPasswordPage />;
  return <main style={{ padding: 24, fontFamily: 'sans-serif' }}>Painel de Atendimento</main>;
}

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <MantineProvider theme={theme}>
        <App />
      </MantineProvider>
    </StrictMode>,
  );
}
