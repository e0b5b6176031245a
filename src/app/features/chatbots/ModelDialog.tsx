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
import { useState } from 'react';
import { errorMessage } from '@/app/lib/api';
import { Dialog } from '@/app/ui/Dialog';
import { DialogForm } from '@/app/ui/FormParts';
import { useFormError } from '@/app/ui/use-form-error';
import {
  type Chatbot,
  type ChatbotModel,
  PERSONA_GENDERS,
  type PersonaGender,
} from '@/shared/contract/chatbots';
import { labels, messages } from '@/shared/messages';
import { chatbotLabels } from '@/shared/messages-editors';
import { chatbotProblems, draftFromModel, modelFieldProblems } from '@/shared/rules/chatbot';
import { fieldError } from '@/shared/rules/field-error';
import { chatbotModelsQuery, useCreateFromModel } from './chatbot-actions';

const L = chatbotLabels;

interface Props {
  opened: boolean;
  onClose(): void;
  onCreated(chatbot: Chatbot): void;
}

export function ModelDialog({ opened, onClose, onCreated }: Props) {
  return (
    <Dialog opened={opened} onClose={onClose} title={L.createFromModel} size="lg">
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
        <Loader aria-label={labels.common.loading} />
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
        label={L.model}
        placeholder={labels.chips.select}
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
  const fieldNames = ['name', 'persona_name', 'persona_gender', ...model.content.map((i) => i.name)];
  const { formRef, errorOf, showAll, clear, reset, afterSave } = useFormError(fieldNames);

  function submit(e: React.FormEvent) {
    e.preventDefault();
    // Every missing field at once: the model's fields, then the persona (the user's part), as the server
    // judges them; the first one in view and focused.
    const instructions = { persona_name: personaName, persona_gender: gender };
    const missing = modelFieldProblems(model, values);
    const result = draftFromModel(model, values, name);
    const draft = 'draft' in result ? result.draft : null;
    const persona = draft
      ? chatbotProblems({ ...draft, instructionsObject: { ...draft.instructionsObject, ...instructions } })
      : [
          ...(personaName.trim() ? [] : [fieldError('persona_name', messages.chatbotPersonaNameRequired)]),
          ...(gender ? [] : [fieldError('persona_gender', messages.chatbotPersonaGenderRequired)]),
        ];
    const problems = [...missing, ...persona];
    if (problems.length) return showAll(problems);
    if (!draft) return;
    reset();
    create.mutate(
      {
        model: model._id,
        name,
        values,
        instructions: { ...draft.instructionsObject, ...instructions },
      },
      {
        onSuccess: (chatbot) => {
          onClose();
          onCreated(chatbot);
        },
        onError: afterSave(() => undefined).onError,
      },
    );
  }

  const set = (field: string, value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    clear(field);
  };

  return (
    <DialogForm
      formRef={formRef}
      onSubmit={submit}
      error={errorOf('form')}
      onCancel={onClose}
      loading={create.isPending}
      label={labels.flows.create}
    >
      <Text fz="sm" c="dimmed">
        {model.description}
      </Text>
      <TextInput
        label={L.chatbotName}
        placeholder={model.name}
        value={name}
        onChange={(e) => {
          setName(e.currentTarget.value);
          clear('name');
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
        label={L.personaName}
        withAsterisk
        value={personaName}
        onChange={(e) => {
          setPersonaName(e.currentTarget.value);
          clear('persona_name');
        }}
        error={errorOf('persona_name')}
        maxLength={100}
      />
      <Radio.Group
        label={L.gender}
        withAsterisk
        value={gender}
        onChange={(v) => {
          setGender(v as PersonaGender);
          clear('persona_gender');
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
