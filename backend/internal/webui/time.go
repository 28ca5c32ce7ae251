package webui

import "time"

// zeroTime disables Last-Modified: embedded files carry no modification time,
// and hashed names or no-cache make it unnecessary.
var zeroTime time.Time
