// The user's notifications (GET /api/notifications): what the bell shows and the dashboard reads for robot failures.
import { apiFetch } from './http';

export interface NotificationItem {
  id: number;
  title: string;
  description: string | null;
  link: string | null;
  read: boolean;
  createdAt: string;
  /** What happened (robot_error, robot_timeout...) and to which file, when it is about one. */
  kind?: string | null;
  dossierId?: number | null;
}

export interface NotificationFeed {
  member: NotificationItem[];
  totalItems: number;
  unreadCount: number;
}

export const NOTIFICATIONS_QUERY_KEY = ['pecflow', 'notifications'];

export const notificationsApi = {
  feed: (itemsPerPage: number) => apiFetch<NotificationFeed>(`/api/notifications?itemsPerPage=${itemsPerPage}`),
  markRead: (id: number) => apiFetch(`/api/notifications/${id}/read`, { method: 'POST' }),
  markAllRead: () => apiFetch('/api/notifications/read-all', { method: 'POST' }),
};
