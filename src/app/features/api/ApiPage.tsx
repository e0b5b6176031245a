// /api (spec 3 §2.15): the account's API key (masked, shown on demand, copied; generated or replaced by
// update-api-key: 'Chave atualizada com sucesso!') and the public integration API documented from its own
// contract (src/shared/contract/public-api.ts): one block per endpoint with its query parameters, its body
// and a curl request with this origin, the key and the user's first chip and flow, copied with
// 'Requisição copiada para a área de transferência'. The OpenAPI document is a link away. Owners and
// managers with the api area; plan: integrations (max_channels above 1).
import {
  ActionIcon,
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Code,
  Group,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
  Tooltip,
} from '@mantine/core';
import { IconCopy, IconExternalLink, IconEye, IconEyeOff, IconKey } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { useChips, useFlows } from '@/app/lib/lists';
import { useCallMutation } from '@/app/lib/mutation';
import { notifyError, notifySuccess } from '@/app/lib/notify';
import { useCurrentUser, useSetCurrentUser } from '@/app/lib/user';
import { confirm } from '@/app/ui/confirm';
import { PageHeader } from '@/app/ui/PageHeader';
import { PlanGate } from '@/app/widgets/PlanGate';
import {
  OPENAPI_PATH,
  type PublicEndpoint,
  type PublicEndpointName,
  publicEndpoints,
} from '@/shared/contract/public-api';
import { messages } from '@/shared/messages';
import { apiMessages, apiLabels as L, apiExamples as X } from '@/shared/messages-api';
import { type ApiRequest, curlOf } from '@/shared/rules/public-api-request';
import { exampleRequests } from './api-examples';

export function ApiPage() {
  return (
    <PlanGate plan="integrations" title={L.title}>
      <ApiDocs />
    </PlanGate>
  );
}

async function copy(text: string, done: string) {
  try {
    await navigator.clipboard.writeText(text);
    notifySuccess(done);
  } catch (err) {
    notifyError(err);
  }
}

function ApiDocs() {
  const user = useCurrentUser();
  const chips = useChips();
  const flows = useFlows();
  const apiKey = user.account.api_key;
  const origin = window.location.origin;

  const usable = useMemo(() => (chips.data ?? []).filter((c) => !c.filed), [chips.data]);
  const [picked, setPicked] = useState<string | null>(null);
  const [phone, setPhone] = useState<string>(X.phone);
  // A connected chip first: the copied request then sends at once.
  const chip = usable.find((c) => c._id === picked) ?? usable.find((c) => c.status === 'open') ?? usable[0];

  const requests = useMemo(() => {
    const official = chip?.official ? chip : usable.find((c) => c.official);
    return exampleRequests({
      apiKey,
      chip: chip?._id ?? null,
      officialChip: official?._id ?? null,
      flow: flows.data?.[0]?._id ?? null,
      phone,
    });
  }, [apiKey, chip, usable, flows.data, phone]);

  return (
    <>
      <PageHeader title={L.title} />
      <Stack gap="lg">
        <ApiKeyCard apiKey={apiKey} />
        <Stack gap={4}>
          <Text fz="sm">{L.introduction}</Text>
          <Text fz="sm">{L.idempotency}</Text>
          <Text fz="sm">{L.limit}</Text>
          <Anchor href={OPENAPI_PATH} target="_blank" rel="noopener" fz="sm">
            <Group gap={4} component="span" wrap="nowrap">
              <IconExternalLink size={16} aria-hidden />
              {L.documentOpenApi}
            </Group>
          </Anchor>
        </Stack>
        {chips.data && usable.length === 0 ? (
          <Alert color="blue" role="status">
            {L.noChip}
          </Alert>
        ) : (
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <Select
              label={L.examplesChip}
              data={usable.map((c) => ({ value: c._id, label: c.name }))}
              value={chip?._id ?? null}
              onChange={setPicked}
              allowDeselect={false}
            />
            <TextInput
              label={L.examplesPhone}
              value={phone}
              onChange={(e) => setPhone(e.currentTarget.value)}
              inputMode="tel"
            />
          </SimpleGrid>
        )}
        {(Object.keys(publicEndpoints) as PublicEndpointName[]).map((name) => (
          <EndpointCard
            key={name}
            name={name}
            endpoint={publicEndpoints[name]}
            request={requests[name]}
            origin={origin}
          />
        ))}
      </Stack>
    </>
  );
}

function ApiKeyCard({ apiKey }: { apiKey: string | null }) {
  const setUser = useSetCurrentUser();
  const user = useCurrentUser();
  const [shown, setShown] = useState(false);
  const update = useCallMutation('update-api-key', {
    successMessage: messages.keyUpdated,
    toastError: true,
    onSuccess: (answer) => setUser({ ...user, account: { ...user.account, api_key: answer.api_key } }),
  });

  async function renew() {
    if (apiKey && !(await confirm({ title: L.updateTitle, message: L.updateText, danger: true }))) return;
    update.mutate({});
  }

  return (
    <Card withBorder padding="md" radius="md">
      <Stack gap="sm">
        <Group gap="xs">
          <IconKey size={20} aria-hidden />
          <Title order={2} fz="h4">
            {L.apiKey}
          </Title>
        </Group>
        {apiKey ? (
          <TextInput
            aria-label={L.apiKey}
            readOnly
            value={shown ? apiKey : '•'.repeat(Math.min(apiKey.length, 32))}
            styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
            rightSectionWidth={72}
            rightSection={
              <Group gap={2} wrap="nowrap">
                <Tooltip label={shown ? L.hideKey : L.showKey}>
                  <ActionIcon
                    variant="subtle"
                    aria-label={shown ? L.hideKey : L.showKey}
                    onClick={() => setShown((s) => !s)}
                  >
                    {shown ? <IconEyeOff size={18} aria-hidden /> : <IconEye size={18} aria-hidden />}
                  </ActionIcon>
                </Tooltip>
                <Tooltip label={L.copyKey}>
                  <ActionIcon
                    variant="subtle"
                    aria-label={L.copyKey}
                    onClick={() => void copy(apiKey, L.keyCopied)}
                  >
                    <IconCopy size={18} aria-hidden />
                  </ActionIcon>
                </Tooltip>
              </Group>
            }
          />
        ) : (
          <Text fz="sm" c="dimmed">
            {L.noKey}
          </Text>
        )}
        <Group>
          <Button
            onClick={() => void renew()}
            loading={update.isPending}
            variant={apiKey ? 'default' : 'filled'}
          >
            {apiKey ? L.updateKey : L.generateKey}
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}

type Described = { description?: string; isOptional(): boolean; unwrap?(): Described };

/** The query parameters of an endpoint, from its schema: name, required or not, what it is. */
function parameters(endpoint: PublicEndpoint) {
  return Object.entries(endpoint.query.shape).map(([name, field]) => {
    const schema = field as unknown as Described;
    return {
      name,
      required: !schema.isOptional(),
      // An optional field's description is its inner schema's.
      description: schema.description ?? schema.unwrap?.().description ?? '',
    };
  });
}

function EndpointCard({
  name,
  endpoint,
  request,
  origin,
}: {
  name: PublicEndpointName;
  endpoint: PublicEndpoint;
  request: ApiRequest;
  origin: string;
}) {
  const curl = curlOf(origin, request);
  const headingId = `endpoint-${name}`;
  return (
    <Card withBorder padding="md" radius="md" component="section" aria-labelledby={headingId}>
      <Stack gap="sm">
        <Group gap="xs" wrap="wrap">
          <Badge color="teal" variant="filled" radius="sm">
            {L.post}
          </Badge>
          <Title order={2} fz="h5" id={headingId} style={{ wordBreak: 'break-all' }}>
            <Code fz="sm">{`/api/v1${endpoint.path}`}</Code>
          </Title>
          {name === 'thirdParty' && (
            <Badge variant="light" color="gray">
              {L.variant}
            </Badge>
          )}
        </Group>
        <Text fz="sm">{endpoint.description}</Text>
        <Stack gap={4}>
          <Text fz="sm" fw={600}>
            {L.parameters}
          </Text>
          <Stack gap={6} component="dl" m={0}>
            {parameters(endpoint).map((p) => (
              <div key={p.name}>
                <Group gap="xs" component="dt">
                  <Code>{p.name}</Code>
                  <Text fz="xs" c="dimmed" span>
                    {p.required ? L.required : L.optional}
                  </Text>
                </Group>
                <Text fz="sm" component="dd" m={0} mt={2}>
                  {p.description}
                </Text>
              </div>
            ))}
          </Stack>
        </Stack>
        <Stack gap={4}>
          <Text fz="sm" fw={600}>
            {L.body}
          </Text>
          {endpoint.body.description && (
            <Text fz="xs" c="dimmed">
              {endpoint.body.description}
            </Text>
          )}
          <Code block style={{ overflowX: 'auto' }}>
            {JSON.stringify(request.body, null, 2)}
          </Code>
        </Stack>
        <Stack gap={4}>
          <Group justify="space-between" gap="xs">
            <Text fz="sm" fw={600}>
              {L.example}
            </Text>
            <Button
              size="xs"
              variant="light"
              leftSection={<IconCopy size={16} aria-hidden />}
              onClick={() => void copy(curl, apiMessages.requestCopied)}
              aria-describedby={headingId}
            >
              {L.copyRequest}
            </Button>
          </Group>
          <Code block data-testid={`curl-${name}`} style={{ whiteSpace: 'pre', overflowX: 'auto' }}>
            {curl}
          </Code>
        </Stack>
      </Stack>
    </Card>
  );
}
