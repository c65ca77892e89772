import { Alert, Group, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { ButtonLink } from '@/components/router-links';
import { UpgradeOffer } from '@/features/catalogue/upgrade-offer';
import { LIMIT_REACHED, type UploadLimits } from '../upload-rules';

function Row({ label, value }: { label: string; value: string }) {
  return (
    <Group justify="space-between" gap="xs">
      <Text size="sm" c="gray.4">
        {label}
      </Text>
      <Text size="sm" fw={600}>
        {value}
      </Text>
    </Group>
  );
}

/**
 * Spec 2: the plan's monthly limit, used this month, remaining; /subscription at the limit.
 * `messageInForm`: the form's own alert already says the limit was reached (an upload was just
 * refused) and links to the plans: the panel shows its figures without saying it twice.
 */
export function UploadLimitsPanel({
  limits,
  messageInForm = false,
}: {
  limits: UploadLimits | null;
  messageInForm?: boolean;
}) {
  return (
    <Paper component="section" p="md" radius="md" withBorder aria-labelledby="upload-limits-title">
      <Stack gap="xs">
        <Title order={2} size="h4" id="upload-limits-title">
          Upload limits
        </Title>
        {limits ? (
          <>
            <Row label="Plan" value={limits.plan.name} />
            <Row
              label="Monthly limit"
              value={limits.limit === null ? 'Unlimited' : `${limits.limit} tracks`}
            />
            <Row label="Used this month" value={String(limits.used)} />
            <Row
              label="Remaining"
              value={limits.remaining === null ? 'Unlimited' : String(limits.remaining)}
            />
            {limits.atLimit && messageInForm ? null : limits.atLimit ? (
              <Alert
                color="red"
                variant="light"
                icon={<IconAlertTriangle size={18} aria-hidden />}
                mt="xs"
              >
                <Stack gap="xs" align="flex-start">
                  <Text size="sm">{LIMIT_REACHED}</Text>
                  <UpgradeOffer>
                    <ButtonLink to="/subscription" size="xs" radius="xl">
                      View plans
                    </ButtonLink>
                  </UpgradeOffer>
                </Stack>
              </Alert>
            ) : (
              limits.limit !== null && (
                <UpgradeOffer notice={false}>
                  <Text size="xs" c="gray.4">
                    Need more?{' '}
                    <ButtonLink to="/subscription" variant="subtle" size="compact-xs">
                      Compare plans
                    </ButtonLink>
                  </Text>
                </UpgradeOffer>
              )
            )}
          </>
        ) : (
          <Stack gap={8} role="status" aria-busy="true" aria-label="Loading upload limits">
            <Skeleton h={14} />
            <Skeleton h={14} />
            <Skeleton h={14} />
          </Stack>
        )}
      </Stack>
    </Paper>
  );
}
