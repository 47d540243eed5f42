package director

// Every director's request carries its idempotency key, the Update ID that brought it: the
// workflow sets it with SetKey before the validator and the handler see the request (a client
// that retries sends the same ID), so that a request applied once is never applied again.

// SetKey sets the request's idempotency key.
func (r *ClockRequest) SetKey(key string) { r.Key = key }

// SetKey sets the request's idempotency key.
func (r *SanctionRequest) SetKey(key string) { r.Key = key }

// SetKey sets the request's idempotency key.
func (r *RegisterRequest) SetKey(key string) { r.Key = key }

// SetKey sets the request's idempotency key.
func (r *RegisterBatchRequest) SetKey(key string) { r.Key = key }

// SetKey sets the request's idempotency key.
func (r *RebuyRequest) SetKey(key string) { r.Key = key }

// SetKey sets the request's idempotency key.
func (r *DealRequest) SetKey(key string) { r.Key = key }

// SetKey sets the request's idempotency key.
func (r *MoveRequest) SetKey(key string) { r.Key = key }

// SetKey sets the request's idempotency key.
func (r *BreakRequest) SetKey(key string) { r.Key = key }

// SetKey sets the request's idempotency key.
func (r *UnregisterRequest) SetKey(key string) { r.Key = key }

// SetKey sets the request's idempotency key.
func (r *NoShowRequest) SetKey(key string) { r.Key = key }

// SetKey sets the request's idempotency key.
func (r *AddOnRequest) SetKey(key string) { r.Key = key }

// SetKey sets the request's idempotency key.
func (r *RebuyBatchRequest) SetKey(key string) { r.Key = key }
