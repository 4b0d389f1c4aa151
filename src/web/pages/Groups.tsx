// The group pages: /groups (the account's groups, make one), /groups/{id} (a group) and
// /groups/{id}/party (the party planner).
import { api } from '../api'
import { Layout } from '../components/Layout'
import { type Link, PageData } from '../components/PageData'
import { GroupList } from '../groups/GroupList'
import { GroupView } from '../groups/GroupView'
import { PartyView } from '../groups/PartyView'
import { requireUser } from '../session'

const TO_GROUPS: Link = { href: '/groups', label: 'Back to your groups' }

export function GroupsPage() {
  const load = async () => ({ user: await requireUser(), list: await api.groups() })
  return (
    <PageData title="Groups" what="your groups" load={load}>
      {({ user, list }) => (
        <Layout title="Groups" user={user}>
          <GroupList initial={list.groups} />
        </Layout>
      )}
    </PageData>
  )
}

export function GroupPage({ id }: { id: number }) {
  const load = async () => ({ user: await requireUser(), group: await api.group(id) })
  return (
    <PageData title="Group" what="the group" back={TO_GROUPS} load={load}>
      {({ user, group }) => (
        <Layout title={group.name} user={user}>
          <GroupView initial={group} />
        </Layout>
      )}
    </PageData>
  )
}

export function PartyPage({ id }: { id: number }) {
  const load = async () => ({ user: await requireUser(), group: await api.group(id) })
  return (
    <PageData title="Plan a party" what="the group" back={TO_GROUPS} load={load}>
      {({ user, group }) => (
        <Layout title={`${group.name}: plan a party`} user={user} wide>
          <PartyView initial={group} />
        </Layout>
      )}
    </PageData>
  )
}
