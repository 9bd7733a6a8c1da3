// The booking statuses the service uses (and the sandbox serves): offered in `bookings list --help`
// and by the shell completions. The API documents no closed list, so --status passes any other value on.
export const BOOKING_STATUSES = ['pending', 'confirmed', 'cancelled', 'completed'] as const;
