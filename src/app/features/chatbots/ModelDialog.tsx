// Criar a partir de modelo (spec 3 §3 Chatbot model, §5): pick a model, fill its content fields (a fixed text
// item is shown as information), name the chatbot; the server builds it and the editor opens.
import {
  Alert,
  Center,
  Group,
  Loader,
  Paper,
  Radio,
  Select,
  Stack,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { ApiError, errorMessage } from '@/app/lib/api';
import { Dialog } from '@/app/ui/Dialog';
import { DialogForm } from '@/app/ui/FormParts';
import {
  type Chatbot,
  type ChatbotModel,
  PERSONA_GENDERS,
  type PersonaGender,
} from '@/shared/contract/chatbots';
import { labels } from '@/shared/messages';
import { chatbotLabels } from '@/shared/messages-editors';
import { chatbotProblems, draftFromModel } from '@/shared/rules/chatbot';
import { chatbotModelsQuery, useCreateFromModel } from './chatbot-actions';

const L = chatbotLabels;

interface Props {
  opened: boolean;
  onClose(): void;
  onCreated(chatbot: Chatbot): void;
}

export function ModelDialog({ opened, onClose, onCreated }: Props) {
  return (
    <Dialog opened={opened} onClose={onClose} title={L.criarAPartirDeModelo} size="lg">
      {opened && <ModelForm onClose={onClose} onCreated={onCreated} />}
    </Dialog>
  );
}

function ModelForm({ onClose, onCreated }: Omit<Props, 'opened'>) {
  const models = useQuery(chatbotModelsQuery);
  const [modelId, setModelId] = useState<string | null>(null);
  if (models.isPending)
    return (
      <Center py="lg">
        <Loader aria-label={labels.common.carregando} />
      </Center>
    );
  if (!models.data)
    return (
      <Alert color="red" role="alert">
        {errorMessage(models.error)}
      </Alert>
    );
  const model = models.data.find((m) => m._id === modelId) ?? null;
  return (
    <Stack>
      <Select
        label={L.modelo}
        placeholder={labels.chips.selecione}
        data={models.data.map((m) => ({ value: m._id, label: m.name }))}
        value={modelId}
        onChange={setModelId}
        allowDeselect={false}
        data-autofocus
      />
      {model ? (
        <ModelFields key={model._id} model={model} onClose={onClose} onCreated={onCreated} />
      ) : (
        <Stack gap="xs">
          {models.data.map((m) => (
            <Paper key={m._id} withBorder p="sm">
              <Text fw={600} fz="sm">
                {m.name}
              </Text>
              <Text fz="sm" c="dimmed">
                {m.description}
              </Text>
            </Paper>
          ))}
        </Stack>
      )}
    </Stack>
  );
}

function ModelFields({ model, onClose, onCreated }: { model: ChatbotModel } & Omit<Props, 'opened'>) {
  const create = useCreateFromModel();
  const [name, setName] = useState('');
  const [values, setValues] = useState<Record<string, string>>({});
  const [personaName, setPersonaName] = useState('');
  const [gender, setGender] = useState<PersonaGender | ''>('');
  const [error, setError] = useState<{ field: string; message: string } | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const errorOf = (field: string) => (error?.field === field ? error.message : null);
  const fieldNames = new Set(['name', 'persona_name', 'persona_gender', ...model.content.map((i) => i.name)]);

  function reveal() {
    requestAnimationFrame(() =>
      formRef.current
        ?.querySelector('[aria-invalid="true"], [role="alert"]')
        ?.scrollIntoView({ block: 'center' }),
    );
  }

  function submit(e: React.FormEvent) {
    e.preventDefault();
    // The model's fields first, then the persona (the user's part), as the server judges them.
    const result = draftFromModel(model, values, name);
    if ('error' in result) {
      setError(result.error);
      return reveal();
    }
    const instructions = {
      ...result.draft.instructionsObject,
      persona_name: personaName,
      persona_gender: gender,
    };
    const [problem] = chatbotProblems({ ...result.draft, instructionsObject: instructions });
    if (problem) {
      setError(problem);
      return reveal();
    }
    setError(null);
    create.mutate(
      { model: model._id, name, values, instructions },
      {
        onSuccess: (chatbot) => {
          onClose();
          onCreated(chatbot);
        },
        onError: (err) => {
          const field =
            err instanceof ApiError && err.field && fieldNames.has(err.field) ? err.field : 'form';
          setError({ field, message: errorMessage(err) });
          reveal();
        },
      },
    );
  }

  const set = (field: string, value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    if (error?.field === field) setError(null);
  };

  return (
    <DialogForm
      formRef={formRef}
      onSubmit={submit}
      error={errorOf('form')}
      onCancel={onClose}
      loading={create.isPending}
      label={L.criar}
    >
      <Text fz="sm" c="dimmed">
        {model.description}
      </Text>
      <TextInput
        label={L.nomeDoChatbot}
        placeholder={model.name}
        value={name}
        onChange={(e) => {
          setName(e.currentTarget.value);
          if (error?.field === 'name') setError(null);
        }}
        error={errorOf('name')}
        maxLength={200}
      />
      {model.content.map((item) => {
        if (item.type === 'text')
          return (
            <Alert key={item.name} color="gray" variant="light" title={item.description}>
              <Text fz="sm" style={{ whiteSpace: 'pre-wrap' }}>
                {item.text}
              </Text>
            </Alert>
          );
        const common = {
          label: item.description,
          placeholder: item.placeholder,
          withAsterisk: item.required,
          value: values[item.name] ?? '',
          error: errorOf(item.name),
        };
        return item.type === 'textarea' ? (
          <Textarea
            key={item.name}
            {...common}
            autosize
            minRows={3}
            maxRows={10}
            maxLength={20_000}
            onChange={(e) => set(item.name, e.currentTarget.value)}
          />
        ) : (
          <TextInput
            key={item.name}
            {...common}
            maxLength={2000}
            onChange={(e) => set(item.name, e.currentTarget.value)}
          />
        );
      })}
      <TextInput
        label={L.nomeDaPersona}
        withAsterisk
        value={personaName}
        onChange={(e) => {
          setPersonaName(e.currentTarget.value);
          if (error?.field === 'persona_name') setError(null);
        }}
        error={errorOf('persona_name')}
        maxLength={100}
      />
      <Radio.Group
        label={L.genero}
        withAsterisk
        value={gender}
        onChange={(v) => {
          setGender(v as PersonaGender);
          if (error?.field === 'persona_gender') setError(null);
        }}
        error={errorOf('persona_gender')}
      >
        <Group mt={6}>
          {PERSONA_GENDERS.map((g) => (
            <Radio key={g} value={g} label={L.generos[g]} />
          ))}
        </Group>
      </Radio.Group>
    </DialogForm>
  );
}
