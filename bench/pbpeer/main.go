// Command pbpeer is the PocketBase peer of the exam-day benchmark
// (backend/cmd/examday-bench -mode compare), not part of the product: a
// stock PocketBase v0.36.8 with the collections that do the work the
// simulator's endpoints do, so the two can be measured side by side on the
// same machine.
//
//   - users (PocketBase's own auth collection): a signed-in user reads their
//     own record, GET /api/collections/users/records/:id — the peer of
//     GET /api/session;
//   - notes: one record per user, PATCH /api/collections/notes/records/:id
//     {notes} — the peer of PUT /api/attempts/:id/notes;
//   - chunks: POST /api/collections/chunks/records, multipart with an 8 kB
//     file, the recording's id, the chunk's number and its SHA-256 — the
//     peer of PUT /api/attempts/:id/recordings/:rid/chunks/:seq.
//
// The API rules let each user touch only their own records. It is its own Go
// module (PocketBase's newer versions need Go 1.27), built by `make
// bench-examday`, never by `make test`.
//
//	pbpeer serve --http 127.0.0.1:8090 --dir /tmp/pb
package main

import (
	"log"

	"github.com/pocketbase/pocketbase"
	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/types"
)

func main() {
	app := pocketbase.New()
	app.OnServe().BindFunc(func(se *core.ServeEvent) error {
		if err := ensureCollections(se.App); err != nil {
			return err
		}
		return se.Next()
	})
	if err := app.Start(); err != nil {
		log.Fatal(err)
	}
}

func ensureCollections(app core.App) error {
	users, err := app.FindCollectionByNameOrId("users")
	if err != nil {
		return err
	}
	own := types.Pointer("owner = @request.auth.id")
	if _, err := app.FindCollectionByNameOrId("notes"); err != nil {
		c := core.NewBaseCollection("notes")
		c.Fields.Add(&core.RelationField{Name: "owner", CollectionId: users.Id, Required: true, MaxSelect: 1})
		c.Fields.Add(&core.TextField{Name: "notes", Max: 20000})
		c.ListRule, c.ViewRule, c.UpdateRule = own, own, own
		c.CreateRule = types.Pointer("@request.auth.id != '' && owner = @request.auth.id")
		if err := app.Save(c); err != nil {
			return err
		}
	}
	if _, err := app.FindCollectionByNameOrId("chunks"); err != nil {
		c := core.NewBaseCollection("chunks")
		c.Fields.Add(&core.RelationField{Name: "owner", CollectionId: users.Id, Required: true, MaxSelect: 1})
		c.Fields.Add(&core.TextField{Name: "recording", Required: true, Max: 64})
		c.Fields.Add(&core.NumberField{Name: "seq", OnlyInt: true})
		c.Fields.Add(&core.TextField{Name: "sha256", Max: 64})
		c.Fields.Add(&core.FileField{Name: "file", MaxSelect: 1, MaxSize: 2 << 20, Required: true})
		c.AddIndex("chunks_recording_seq", true, "recording, seq", "")
		c.ListRule, c.ViewRule = own, own
		c.CreateRule = types.Pointer("@request.auth.id != '' && owner = @request.auth.id")
		if err := app.Save(c); err != nil {
			return err
		}
	}
	return nil
}
