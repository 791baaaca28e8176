# modelviewer.mk: embeds model-viewer's script (npm @google/model-viewer,
# fetched and checked by scripts/deps-modelviewer.sh) in folio's theme as
# assets/model-viewer.min.js; folio writes it only for sites with a model.
MODELVIEWER_JS := deps/modelviewer/model-viewer.min.js
THEME_EXTRA += assets/model-viewer.min.js=$(MODELVIEWER_JS)

$(MODELVIEWER_JS): scripts/deps-modelviewer.sh
	@sh scripts/deps-modelviewer.sh && touch $@

